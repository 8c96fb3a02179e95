import { useEffect, useState } from 'preact/hooks';
import { ACCESS, accessLevelOf, api, currentSession, CurrentUser, Project, setUnauthorizedHandler, signOut } from './api';
import { AlertDetailPage } from './pages/alert-detail';
import { AlertListPage } from './pages/alert-list';
import { IntegrationsPage } from './pages/integrations';
import { ProjectsPage, REMEMBERED_PROJECT } from './pages/projects';
import { SignInPage } from './pages/sign-in';
import { SystemHooksPage } from './pages/system-hooks';
import { href, interceptLinks, navigate, routeOf, useLocation } from './router';

export function App() {
  const loc = useLocation();
  const route = routeOf(loc.pathname);
  const [user, setUser] = useState<CurrentUser | null | undefined>(undefined);
  const [project, setProject] = useState<Project | null>(null);
  const projectId = 'projectId' in route ? route.projectId : null;

  useEffect(() => {
    setUnauthorizedHandler(() => setUser(null));
    void currentSession().then(setUser);
    addEventListener('click', interceptLinks);
    return () => removeEventListener('click', interceptLinks);
  }, []);

  useEffect(() => {
    if (!user || projectId === null) return;
    localStorage.setItem(REMEMBERED_PROJECT, String(projectId));
    if (project?.id === projectId) return;
    api.get<Project>(`/projects/${projectId}`).then(setProject, () => setProject(null));
  }, [user, projectId]);

  useEffect(() => {
    if (!user) return;
    if (route.name === 'sign-in') navigate('/', true);
    else if (route.name === 'projects' && !new URLSearchParams(loc.search).has('all')) {
      const remembered = localStorage.getItem(REMEMBERED_PROJECT);
      if (remembered && /^\d+$/.test(remembered)) navigate(`/projects/${remembered}/alerts`, true);
    }
  }, [user, route.name, loc.search]);

  if (user === undefined) return <p aria-busy="true">Loading…</p>;
  if (user === null) return <SignInPage onSignedIn={setUser} />;

  const level = project && project.id === projectId ? accessLevelOf(project, user) : user.is_admin ? ACCESS.OWNER : 0;
  const page = (() => {
    switch (route.name) {
      case 'alerts':
        return <AlertListPage projectId={route.projectId} search={loc.search} />;
      case 'alert':
        return <AlertDetailPage key={`${route.projectId}/${route.iid}`} projectId={route.projectId} iid={route.iid} user={user} accessLevel={level} />;
      case 'integrations':
        return <IntegrationsPage projectId={route.projectId} />;
      case 'hooks':
        return <SystemHooksPage />;
      case 'not-found':
        return (
          <main id="main">
            <h1>Page not found</h1>
          </main>
        );
      default:
        return <ProjectsPage />;
    }
  })();

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href('/?all')}>
          On-call console
        </a>
        <nav aria-label="Main">
          {projectId !== null && (
            <>
              <span class="project-name">{project?.path_with_namespace ?? `Project ${projectId}`}</span>
              <a href={href(`/projects/${projectId}/alerts`)} aria-current={route.name === 'alerts' ? 'page' : undefined}>
                Alerts
              </a>
              {level >= ACCESS.MAINTAINER && (
                <a href={href(`/projects/${projectId}/integrations`)} aria-current={route.name === 'integrations' ? 'page' : undefined}>
                  Integrations
                </a>
              )}
            </>
          )}
          <a href={href('/?all')}>Projects</a>
          {user.is_admin && (
            <a href={href('/admin/hooks')} aria-current={route.name === 'hooks' ? 'page' : undefined}>
              System hooks
            </a>
          )}
          <button
            type="button"
            class="button link"
            onClick={async () => {
              await signOut();
              setUser(null);
              navigate('/sign_in', true);
            }}
          >
            Sign out @{user.username}
          </button>
        </nav>
      </header>
      {page}
    </>
  );
}
