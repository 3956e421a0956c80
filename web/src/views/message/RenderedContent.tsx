/** A message's HTML as the server rendered it (the server's renderer escapes what people typed). */
export function RenderedContent(props: { html: string }) {
  return <div class="rendered_markdown" dangerouslySetInnerHTML={{ __html: props.html }} />;
}
