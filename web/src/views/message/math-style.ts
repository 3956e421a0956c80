/**
 * KaTeX's stylesheet (its fonts load from the app's own assets, allowed by the
 * page's `font-src 'self' data:`), in a chunk loaded only when a message shows math.
 */
import "katex/dist/katex.min.css";
