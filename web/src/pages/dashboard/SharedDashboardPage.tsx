// Placeholder: built in the dashboard work (issue 13).
export default function SharedDashboardPage({ domain }: { domain: string }) {
  return <main className="centered">Shared dashboard of {domain}</main>;
}
