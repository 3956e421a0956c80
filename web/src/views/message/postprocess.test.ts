// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { enhanceRenderedContent, formatTimestamp, prepareHtml, toggleSpoiler } from "./postprocess.js";

/** A detached element holding `html`, as the feed puts a message body in the page. */
function body(html: string): HTMLElement {
  const el = document.createElement("div");
  el.innerHTML = html;
  return el;
}

describe("prepareHtml", () => {
  it("marks images lazy before they reach the DOM, once", () => {
    const html = '<div class="message_inline_image"><a href="/x.png"><img src="/x.png"></a></div>';
    const out = prepareHtml(html);
    expect(out).toBe('<div class="message_inline_image"><a href="/x.png"><img loading="lazy" decoding="async" src="/x.png"></a></div>');
    expect(prepareHtml(out)).toBe(out);
  });

  it("leaves escaped text alone", () => {
    expect(prepareHtml("<p>&lt;img src=x&gt;</p>")).toBe("<p>&lt;img src=x&gt;</p>");
    expect(prepareHtml('<p>a style="color:red" b</p>')).toBe('<p>a style="color:red" b</p>');
  });

  it("parks style attributes, which enhanceRenderedContent applies through the CSSOM", () => {
    const html = prepareHtml('<span class="katex"><span class="strut" style="height:1.79em;vertical-align:-0.686em;"></span></span>');
    expect(html).toBe('<span class="katex"><span class="strut" data-server-style="height:1.79em;vertical-align:-0.686em;"></span></span>');
    const el = body(html);
    enhanceRenderedContent(el);
    const strut = el.querySelector<HTMLElement>(".strut")!;
    expect(strut.style.height).toBe("1.79em");
    expect(strut.style.verticalAlign).toBe("-0.686em");
    expect(strut.hasAttribute("data-server-style")).toBe(false);
  });
});

/** ICU versions differ in the space before AM/PM (U+0020 or U+202F). */
const spaces = (s: string | null) => s?.replace(/\u202f/g, " ") ?? null;

describe("formatTimestamp", () => {
  it("shows the instant in the given zone with its weekday", () => {
    expect(spaces(formatTimestamp("2024-01-04T15:00:00Z", "UTC", "en-US"))).toBe("Thu, Jan 4, 2024, 3:00 PM");
    expect(spaces(formatTimestamp("2024-01-04T15:00:00Z", "Asia/Tokyo", "en-US"))).toBe("Fri, Jan 5, 2024, 12:00 AM");
  });

  it("returns null for a datetime that is not a date", () => {
    expect(spaces(formatTimestamp("soon", "UTC", "en-US"))).toBeNull();
  });
});

describe("enhanceRenderedContent", () => {
  it("shows emoji spans as characters and keeps their name", () => {
    const el = body('<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>');
    enhanceRenderedContent(el);
    const span = el.querySelector("span.emoji")!;
    expect(span.textContent).toBe("🙂");
    expect(span.getAttribute("aria-label")).toBe("smile");
    expect(span.getAttribute("title")).toBe("smile");
  });

  it("shows times in the reader's zone and keeps the typed text as the title", () => {
    const el = body('<p><time datetime="2024-01-04T15:00:00Z">2024-01-04 15:00</time></p>');
    enhanceRenderedContent(el, { timeZone: "UTC", locale: "en-US" });
    const time = el.querySelector("time")!;
    expect(spaces(time.textContent)).toBe("Thu, Jan 4, 2024, 3:00 PM");
    expect(time.title).toBe("Original text: 2024-01-04 15:00");
    enhanceRenderedContent(el, { timeZone: "UTC", locale: "en-US" });
    expect(time.title).toBe("Original text: 2024-01-04 15:00");
  });

  it("opens outside links in a new tab and leaves narrow links in place", () => {
    const el = body('<p><a href="https://example.com">x</a> <a class="stream" data-stream-id="3" href="#narrow/channel/3-general">#general</a></p>');
    enhanceRenderedContent(el);
    const [outside, stream] = el.querySelectorAll("a");
    expect(outside!.target).toBe("_blank");
    expect(outside!.rel).toBe("noopener noreferrer");
    expect(stream!.hasAttribute("target")).toBe(false);
  });

  it("names image previews by their link's title, else by the file's name", () => {
    const el = body(
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a%20b.png" title="holiday"><img src="/t1"></a></div>' +
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/y/a%20b.png"><img src="/t2"></a></div>',
    );
    enhanceRenderedContent(el);
    expect([...el.querySelectorAll("img")].map((i) => i.alt)).toEqual(["holiday", "a b.png"]);
  });

  it("highlights the reader's own and wildcard mentions, not others or silent ones", () => {
    const el = body(
      '<p><span class="user-mention" data-user-id="5">@Iago</span> <span class="user-mention" data-user-id="6">@Cordelia</span> ' +
        '<span class="user-mention silent" data-user-id="5">Iago</span> <span class="user-mention" data-user-id="*">@all</span></p>',
    );
    enhanceRenderedContent(el, { selfUserId: 5 });
    expect([...el.querySelectorAll(".user-mention")].map((m) => m.classList.contains("mention-me"))).toEqual([true, false, false, true]);
  });

  it("reports code blocks and math so their code and styles can be loaded", () => {
    expect(enhanceRenderedContent(body("<p>hi</p>"))).toEqual({ hasCode: false, hasMath: false });
    const code = body('<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = 1</code></pre></div>');
    expect(enhanceRenderedContent(code)).toEqual({ hasCode: true, hasMath: false });
    expect(enhanceRenderedContent(body('<p><span class="katex">x</span></p>'))).toEqual({ hasCode: false, hasMath: true });
  });
});

describe("toggleSpoiler", () => {
  it("opens and closes the content under its header", () => {
    const el = body(
      '<div class="spoiler-block"><div class="spoiler-header"><p>Plot</p></div><div class="spoiler-content" aria-hidden="true"><p>twist</p></div></div>',
    );
    enhanceRenderedContent(el);
    const header = el.querySelector<HTMLElement>(".spoiler-header")!;
    expect(header.getAttribute("role")).toBe("button");
    expect(header.getAttribute("aria-expanded")).toBe("false");
    expect(toggleSpoiler(header)).toBe(true);
    expect(el.querySelector(".spoiler-block")!.classList.contains("spoiler-open")).toBe(true);
    expect(el.querySelector(".spoiler-content")!.getAttribute("aria-hidden")).toBe("false");
    expect(header.getAttribute("aria-expanded")).toBe("true");
    expect(toggleSpoiler(header)).toBe(false);
    expect(el.querySelector(".spoiler-content")!.getAttribute("aria-hidden")).toBe("true");
  });
});
