import { useEffect, useState } from "preact/hooks";

/**
 * Which message is being edited in place (at most one, as in Zulip's web
 * app), shared by the message's row (which shows the edit form), its "Edit
 * message" button and the `e` shortcut. Kept outside the rows, since the
 * feed's virtual list unmounts rows that scroll away.
 */
let editingId: number | null = null;
const listeners = new Set<() => void>();

function set(id: number | null): void {
  if (editingId === id) return;
  editingId = id;
  for (const fn of listeners) fn();
}

/** Opens the edit form of a message (closing any other). */
export function startEditing(messageId: number): void {
  set(messageId);
}

/** Closes the edit form of a message, if it is the open one. */
export function stopEditing(messageId: number): void {
  if (editingId === messageId) set(null);
}

/** The message being edited, or null. */
export function currentlyEditing(): number | null {
  return editingId;
}

/** Whether this message's edit form is open; re-renders the caller when that changes. */
export function useEditing(messageId: number): boolean {
  const [editing, setEditing] = useState(editingId === messageId);
  useEffect(() => {
    const update = () => setEditing(editingId === messageId);
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, [messageId]);
  return editing;
}
