// Placeholder: built in the web-app work (issue 13).
export function InvitationPage({ token }: { token: string }) {
  return <main className="centered">Invitation {token}</main>;
}
