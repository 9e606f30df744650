// Placeholder: built in the web-app work (issue 13).
export function SitesPage() {
  return <main className="centered">Sites</main>;
}
