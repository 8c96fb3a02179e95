import { useEffect, useState } from 'preact/hooks';
import { api, Project } from '../api';
import { ErrorNote } from '../components';
import { href } from '../router';

export const REMEMBERED_PROJECT = 'console.project';

/** The projects the user is a member of, searchable. */
export function ProjectsPage() {
  const [search, setSearch] = useState('');
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      const q = new URLSearchParams({ membership: 'true', simple: 'true', per_page: '50', order_by: 'name', sort: 'asc' });
      if (search.trim()) q.set('search', search.trim());
      api.get<Project[]>(`/projects?${q}`).then(setProjects, (e: Error) => setError(e.message));
    }, 150);
    return () => clearTimeout(timer);
  }, [search]);
  return (
    <main id="main">
      <h1>Projects</h1>
      <label for="project-search">Search your projects</label>
      <input id="project-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      <ErrorNote error={error} />
      {projects && projects.length === 0 && <p>No project found.</p>}
      <ul class="project-list">
        {projects?.map((p) => (
          <li key={p.id}>
            <a href={href(`/projects/${p.id}/alerts`)} onClick={() => localStorage.setItem(REMEMBERED_PROJECT, String(p.id))}>
              {p.name_with_namespace ?? p.path_with_namespace}
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
