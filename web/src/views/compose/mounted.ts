/*
 * The mounted compose box's handles: other views (a drop on the feed, "Quote
 * and reply", the shortcuts) reach the one open box through these, and the
 * box sets them while it is mounted open.
 */

let focusMounted: (() => void) | null = null;
let uploadMounted: ((files: File[]) => void) | null = null;
let insertMounted: ((block: string) => void) | null = null;

/** Sets the box's handles; returns the cleanup, which clears those that are still the ones set here. */
export function mountComposeHandles(handles: { focus?: () => void; upload?: (files: File[]) => void; insert?: (block: string) => void }): () => void {
  if (handles.focus) focusMounted = handles.focus;
  if (handles.upload) uploadMounted = handles.upload;
  if (handles.insert) insertMounted = handles.insert;
  return () => {
    if (handles.focus && focusMounted === handles.focus) focusMounted = null;
    if (handles.upload && uploadMounted === handles.upload) uploadMounted = null;
    if (handles.insert && insertMounted === handles.insert) insertMounted = null;
  };
}

/** Uploads files from the mounted compose box (a drop on the feed); the caller opens the box. */
export function uploadToCompose(files: File[]): void {
  uploadMounted?.(files);
}

/**
 * Adds a block of text (a quote) to the open compose box's message on a
 * paragraph of its own and focuses it, caret at the end. False when no box is mounted open.
 */
export function insertIntoCompose(block: string): boolean {
  insertMounted?.(block);
  return insertMounted !== null;
}

/**
 * Focuses the open compose box: the first field still empty (stream, topic,
 * recipients) or else the message. Does nothing when no box is mounted open.
 */
export function focusCompose(): void {
  focusMounted?.();
}

