import { Navigate, Resource, ResourceContextProvider } from 'react-admin';
import { Route, useParams } from 'react-router-dom';
import { useUser } from '../api/session';
import { NotFound } from '../pages/ExceptionPage';
import { guard } from './Guarded';
import { HOME_PATH, sectionRedirect } from './table';
import type { ScreenDecl, SectionDecl } from './types';

/** react-admin resource name of a resource screen: its URL without the leading slash ('setting/operators'). */
export const resourceName = (section: SectionDecl, screenPath: string) => `${section.path}/${screenPath}`;

/** resource name → API path, for the dataProvider. */
export function apiPaths(sections: readonly SectionDecl[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of sections) {
    Object.assign(out, s.resources);
    for (const sc of s.screens) {
      if (sc.resource) out[resourceName(s, sc.path)] = sc.resource.apiPath;
      else if (sc.resourceName && sc.apiPath) out[sc.resourceName] = sc.apiPath;
    }
  }
  return out;
}

/** react-admin links to `/<resource>/<id>` (edit) and `/<resource>/<id>/show`: send them to the declared URLs. */
function ToDeclaredUrl({ target }: { target: string }) {
  const { id = '' } = useParams();
  return <Navigate to={target.replace(/:id\??/, encodeURIComponent(id))} replace />;
}

/**
 * The react-admin <Resource>s of the table. The list is the declared screen URL; `create` is react-admin's own
 * create route (same URL); `edit/:id` and `show/:id` are child routes, and react-admin's default `/:id` and
 * `/:id/show` URLs redirect to them, so CreateButton, EditButton, rowClick and redirects after save all work.
 */
export function resourceElements(sections: readonly SectionDecl[]) {
  return sections.flatMap((s) =>
    s.screens
      .filter((sc) => sc.resource)
      .map((sc) => {
        const name = resourceName(s, sc.path);
        const need = sc.permission ?? s.permission;
        const r = sc.resource!;
        const subs = r.screens ?? [];
        const create = subs.find((sub) => sub.path === 'create');
        const hasEdit = r.editPath || subs.some((sub) => /^edit\/:id\??$/.test(sub.path));
        const hasShow = subs.some((sub) => /^show\/:id\??$/.test(sub.path));
        return (
          <Resource
            key={name}
            name={name}
            list={guard(need, r.list, sc.editPermission)}
            create={
              create ? (
                guard(create.permission ?? need, create.component, create.editPermission)
              ) : r.createPath ? (
                <Navigate to={r.createPath} replace />
              ) : undefined
            }
            edit={hasEdit ? <ToDeclaredUrl target={r.editPath ?? `/${name}/edit/:id`} /> : undefined}
            show={hasShow ? <ToDeclaredUrl target={`/${name}/show/:id`} /> : undefined}
            recordRepresentation={r.recordRepresentation}
            icon={sc.icon}
          >
            {subs
              .filter((sub) => sub !== create)
              .map((sub) => {
                const Screen = guard(sub.permission ?? need, sub.component, sub.editPermission);
                return <Route key={sub.path} path={sub.path} element={<Screen />} />;
              })}
          </Resource>
        );
      }),
  );
}

function SectionRedirect({ section }: { section: SectionDecl }) {
  const user = useUser();
  const target = sectionRedirect(section, user?.permissions);
  return target ? <Navigate to={target} replace /> : <NotFound />;
}

function screenElement(section: SectionDecl, sc: ScreenDecl) {
  const Screen = guard(sc.permission ?? section.permission, sc.component!, sc.editPermission);
  return sc.resourceName ? (
    <ResourceContextProvider value={sc.resourceName}>
      <Screen />
    </ResourceContextProvider>
  ) : (
    <Screen />
  );
}

/** Plain screens, the section redirects (/movie → /movie/review) and `/` → home. */
export function customRouteElements(sections: readonly SectionDecl[]) {
  return [
    <Route key="/" path="/" element={<Navigate to={HOME_PATH} replace />} />,
    ...sections.map((s) => (
      <Route key={`/${s.path}`} path={`/${s.path}`} element={<SectionRedirect section={s} />} />
    )),
    ...sections.flatMap((s) =>
      s.screens
        .filter((sc) => sc.component)
        .map((sc) => (
          <Route
            key={`/${s.path}/${sc.path}`}
            path={`/${s.path}/${sc.path}`}
            element={screenElement(s, sc)}
          />
        )),
    ),
  ];
}
