/** The backend as named to people: its URL, without the trailing slash of a bare origin. */
export function backendLabel(backend: string): string {
  const url = new URL(backend);
  return url.pathname === '/' && !url.search ? url.origin : url.href;
}
