// Whether the console may fetch code ahead of need (the screens a user may open next, the dashboard's map
// before it is shown). On a desktop it makes the next screen open at once; on a phone, which is so often
// on a slow or metered mobile network, the same bytes would queue in front of what the user is waiting
// for (issue 30: an operator's lane grid came 7 s late behind ECharts and the form library), so a phone,
// or a browser asked to save data, fetches only what it shows.
const PHONE = "(max-width: 767.98px), (pointer: coarse)";

export function mayFetchAhead(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return false;
  return typeof matchMedia !== "function" || !matchMedia(PHONE).matches;
}
