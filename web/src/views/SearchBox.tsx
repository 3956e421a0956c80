import { useState } from "preact/hooks";

/** The search box: Zulip's search operators as typed (`channel:general topic:lunch sender:me words`). */
export function SearchBox(props: { value: string; onSearch(query: string): void }) {
  const [text, setText] = useState(props.value);
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(text);
      }}
    >
      <input aria-label="Search" type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
    </form>
  );
}
