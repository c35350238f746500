-- Roles (issue #52): named sets of permissions (`<section>.<action>`, common/permissions.ts) finer than admin/user.
-- `admin` and `user` stay as built-in rows whose permissions are not stored: the server derives them from the
-- sections' declarations (admin every permission, user what each section gives it), so a new section needs no
-- migration and the built-ins cannot drift. Operators keep naming their role in `operators.role`: today's values
-- are the built-ins' names, so every existing operator keeps exactly the rights it had. The name is the reference
-- (unique; a rename follows into `operators` by ON UPDATE CASCADE), and a role that operators hold cannot be
-- deleted (the foreign key refuses it; the API says so first). Operators are not per tenant, so neither are role
-- names; `tenant` says where a custom role was made (0: the built-ins, every tenant).
CREATE TABLE "roles" (
  "id" serial PRIMARY KEY,
  "tenant" integer DEFAULT 0 NOT NULL,
  "name" varchar(32) NOT NULL,
  "permissions" text[] DEFAULT '{}'::text[] NOT NULL,
  "builtin" boolean DEFAULT false NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name" ON "roles" ("name");--> statement-breakpoint
INSERT INTO "roles" ("name", "builtin") VALUES ('admin', true), ('user', true);--> statement-breakpoint
ALTER TABLE "operators" ALTER COLUMN "role" TYPE varchar(32);--> statement-breakpoint
ALTER TABLE "operators" ADD CONSTRAINT "operators_role_fk" FOREIGN KEY ("role") REFERENCES "roles" ("name")
  ON UPDATE CASCADE ON DELETE RESTRICT;
