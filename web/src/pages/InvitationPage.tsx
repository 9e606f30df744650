// Placeholder: built in the web-app work (issue 13). The token is in the query string (?token=).
export function InvitationPage({ kind }: { kind: 'invitations' | 'ownership-transfers' }) {
  return <main className="centered">Accept {kind}</main>;
}
