import { Navigate, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { useUser } from '../api/session';
import { NotFound } from '../pages/ExceptionPage';
import { guard } from './Guarded';
import { HOME_PATH, sectionRedirect } from './table';
import type { SectionDecl } from './types';

/** react-admin resource name of a resource screen: its URL without the leading slash ('setting/operators'). */
export const resourceName = (section: SectionDecl, screenPath: string) => `${section.path}/${screenPath}`;

/** resource name → API path, for the dataProvider. */
export function apiPaths(sections: readonly SectionDecl[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of sections)
    for (const sc of s.screens) if (sc.resource) out[resourceName(s, sc.path)] = sc.resource.apiPath;
  return out;
}

/** The react-admin <Resource>s of the table: URLs are the declared ones, sub-screens are child routes. */
export function resourceElements(sections: readonly SectionDecl[]) {
  return sections.flatMap((s) =>
    s.screens
      .filter((sc) => sc.resource)
      .map((sc) => {
        const roles = sc.roles ?? s.roles ?? ['*'];
        const r = sc.resource!;
        return (
          <Resource
            key={resourceName(s, sc.path)}
            name={resourceName(s, sc.path)}
            list={guard(roles, r.list)}
            recordRepresentation={r.recordRepresentation}
            icon={sc.icon}
          >
            {(r.screens ?? []).map((sub) => {
              const Screen = guard(sub.roles ?? roles, sub.component);
              return <Route key={sub.path} path={sub.path} element={<Screen />} />;
            })}
          </Resource>
        );
      }),
  );
}

function SectionRedirect({ section }: { section: SectionDecl }) {
  const user = useUser();
  const target = sectionRedirect(section, user?.role);
  return target ? <Navigate to={target} replace /> : <NotFound />;
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
        .map((sc) => {
          const Screen = guard(sc.roles ?? s.roles ?? ['*'], sc.component!);
          return <Route key={`/${s.path}/${sc.path}`} path={`/${s.path}/${sc.path}`} element={<Screen />} />;
        }),
    ),
  ];
}
