// Placeholder: built in the dashboard work (issue 13).
export default function DashboardPage({ domain }: { domain: string }) {
  return <main className="centered">Dashboard of {domain}</main>;
}
