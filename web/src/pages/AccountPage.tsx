// Placeholder: built in the web-app work (issue 13).
export function AccountPage() {
  return <main className="centered">Account</main>;
}
