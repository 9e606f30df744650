/** A failure to load or do something, as the sentence the server or browser gave. */
export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
}
