// Placeholder: built in the web-app work (issue 13).
export function SetupPage() {
  return <main className="centered">Setup</main>;
}
