import type { SectionProps } from "../types.js";
import { parseOverlayHash } from "../../../model/overlay.js";
import { StreamSettings } from "./StreamSettings.js";

/**
 * The section for `#channels/<stream id>/…`. The overlay hands sections only
 * what follows their ID, and here the ID is the stream's: it is read from the
 * location hash the overlay was opened by.
 */
export function StreamSettingsSection(props: SectionProps) {
  const id = Number(parseOverlayHash(location.hash)?.section);
  return <StreamSettings {...props} streamId={Number.isInteger(id) ? id : -1} />;
}
