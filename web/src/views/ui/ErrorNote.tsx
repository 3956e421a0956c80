/**
 * A failure shown where the person acted (`p.error-note`, role "alert" so
 * screen readers announce it): the server's message, or nothing when `error` is null.
 */
export function ErrorNote(props: { error: string | null; id?: string }) {
  if (!props.error) return null;
  return (
    <p class="error-note" role="alert" id={props.id}>
      {props.error}
    </p>
  );
}
