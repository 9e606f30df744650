import { Link } from '../router';

export function NotFoundPage() {
  return (
    <main className="centered">
      <div className="card narrow">
        <h1>Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link href="/">Go to your sites</Link>
      </div>
    </main>
  );
}
