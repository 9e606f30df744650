// Placeholder: built in the web-app work (issue 13).
export function SignInPage() {
  return <main className="centered">SignIn</main>;
}
