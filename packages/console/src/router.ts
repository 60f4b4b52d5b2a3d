import { useEffect, useState } from 'preact/hooks';

/** The console's place, in the URL's hash (#/f/1/members/7): links work under any BASE_PATH, and reload keeps it. */
export interface Route {
  facilityId: number | null;
  screen: string;
  /** What follows the screen: ['7'], ['new'], []. */
  rest: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const query = new URLSearchParams(search);
  if (parts[0] === 'f' && /^\d{1,15}$/.test(parts[1] ?? '') && Number(parts[1]) > 0) {
    return { facilityId: Number(parts[1]), screen: parts[2] ?? 'members', rest: parts.slice(3), query };
  }
  return { facilityId: null, screen: parts[0] ?? '', rest: parts.slice(1), query };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash);
}

export function href(facilityId: number, ...path: (string | number)[]): string {
  return `#/f/${facilityId}/${path.join('/')}`;
}

export function navigate(to: string): void {
  window.location.hash = to.replace(/^#/, '');
}
