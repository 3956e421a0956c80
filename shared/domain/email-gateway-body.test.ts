import { describe, expect, it } from "vitest";
import {
  buildGatewayContent,
  EMAIL_NO_TOPIC,
  EmailRefusedError,
  emailTopic,
  extractEmailBody,
  filterFooter,
  isForwardedSubject,
  stripQuotedReply,
} from "./email-gateway-body.js";
import { htmlToMarkdown } from "./html-markdown.js";
import type { GatewayAddressOptions } from "./stream-email.js";

const opts = (more: Partial<GatewayAddressOptions> = {}): GatewayAddressOptions => ({
  showSender: false,
  includeFooter: false,
  preferText: true,
  ...more,
});

describe("emailTopic", () => {
  it("drops reply and forward prefixes, repeated and in brackets", () => {
    expect(emailTopic("Re: Budget")).toBe("Budget");
    expect(emailTopic("RE: Fwd: re: Budget")).toBe("Budget");
    expect(emailTopic("[Fwd: Budget]")).toBe("Budget");
    expect(emailTopic("AW: Termin")).toBe("Termin");
    expect(emailTopic("Fw - news")).toBe("news");
  });

  it("keeps words that only start like a prefix, drops unprintable characters, and falls back on (no topic)", () => {
    expect(emailTopic("Renewal notice")).toBe("Renewal notice");
    expect(emailTopic("Report\u0007 ready")).toBe("Report ready");
    expect(emailTopic("Re:")).toBe(EMAIL_NO_TOPIC);
    expect(emailTopic(undefined)).toBe(EMAIL_NO_TOPIC);
    expect(emailTopic("   ")).toBe(EMAIL_NO_TOPIC);
  });

  it("tells forwarded subjects", () => {
    expect(isForwardedSubject("Fwd: x")).toBe(true);
    expect(isForwardedSubject("FW: x")).toBe(true);
    expect(isForwardedSubject("Re: x")).toBe(false);
    expect(isForwardedSubject("Forward planning")).toBe(false);
  });
});

describe("filterFooter", () => {
  it("cuts at the one -- line", () => {
    expect(filterFooter("Hello\nthere\n-- \nAnn\nACME")).toBe("Hello\nthere");
  });
  it("keeps the text when there are no or several -- lines", () => {
    expect(filterFooter("a\n--\nb\n--\nc")).toBe("a\n--\nb\n--\nc");
    expect(filterFooter("a -- b")).toBe("a -- b");
  });
});

describe("stripQuotedReply", () => {
  it("cuts at an On … wrote: header, also wrapped over two lines", () => {
    expect(stripQuotedReply("Sounds good.\n\nOn Mon, 1 Jan 2024, Ann <ann@x.org> wrote:\n> Shall we?\n")).toBe("Sounds good.");
    expect(stripQuotedReply("Yes.\nOn Mon, 1 Jan 2024 at 10:00, Ann Smith\n<ann@x.org> wrote:\n> Shall we?")).toBe("Yes.");
  });
  it("cuts at Outlook's Original Message separator", () => {
    expect(stripQuotedReply("Done.\n\n-----Original Message-----\nFrom: Ann\nSubject: x")).toBe("Done.");
  });
  it("cuts a trailing > block but keeps quotes interleaved with answers", () => {
    expect(stripQuotedReply("Agreed.\n\n> old text\n> more\n")).toBe("Agreed.");
    const inline = "> question one\nanswer one\n> question two\nanswer two";
    expect(stripQuotedReply(inline)).toBe(inline);
  });
  it("keeps a message that is only a quote", () => {
    expect(stripQuotedReply("> just a quote")).toBe("> just a quote");
  });
});

describe("htmlToMarkdown", () => {
  it("turns paragraphs, breaks, emphasis, links, lists and quotes into Markdown", () => {
    const html =
      "<html><head><style>p{}</style></head><body><p>Hello <b>team</b>,<br>see <a href=\"https://x.org/a?b=1&amp;c=2\">the doc</a>.</p>" +
      "<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol><blockquote><p>quoted</p></blockquote><p>&lt;tag&gt; &amp; caf&#233;</p></body></html>";
    expect(htmlToMarkdown(html)).toBe(
      "Hello **team**,\nsee [the doc](https://x.org/a?b=1&c=2).\n\n- one\n- two\n\n1. first\n\n> quoted\n\n<tag> & café",
    );
  });
  it("quotes nested block quotes and keeps paragraph breaks inside them", () => {
    expect(htmlToMarkdown("<blockquote><p>a</p><p>b</p><blockquote>c</blockquote></blockquote><p>reply</p>")).toBe("> a\n>\n> b\n>\n> > c\n\nreply");
  });
  it("fences preformatted text, keeps bare links bare and drops scripts and unsafe hrefs", () => {
    expect(htmlToMarkdown("<pre>a  b\n  c</pre>")).toBe("```\na  b\n  c\n```");
    expect(htmlToMarkdown('<a href="https://x.org">https://x.org</a>')).toBe("https://x.org");
    expect(htmlToMarkdown('<script>alert(1)</script><a href="javascript:alert(1)">click</a>')).toBe("click");
  });
});

describe("extractEmailBody and buildGatewayContent", () => {
  const email = { fromHeader: "Ann <ann@x.org>", subject: "Hi", text: "Plain body\n\nOn Mon, Bob wrote:\n> old", html: "<p>HTML <i>body</i></p>" };

  it("prefers the text part, strips its quote, and with prefer-html converts the HTML part", () => {
    expect(extractEmailBody(email, opts())).toBe("Plain body");
    expect(extractEmailBody(email, opts({ preferText: false }))).toBe("HTML *body*");
    expect(extractEmailBody({ ...email, text: undefined }, opts())).toBe("HTML *body*");
  });

  it("keeps quotes with include-quotes and for forwarded mail", () => {
    expect(extractEmailBody(email, opts({ includeQuotes: true }))).toContain("> old");
    expect(extractEmailBody({ ...email, subject: "Fwd: Hi" }, opts())).toContain("> old");
  });

  it("refuses an email without a body part or with only empty ones", () => {
    expect(() => extractEmailBody({ fromHeader: "" }, opts())).toThrow(EmailRefusedError);
    expect(() => extractEmailBody({ fromHeader: "", text: "  \n" }, opts())).toThrow("Email has no nonempty body sections; ignoring.");
  });

  it("puts the sender first with show-sender, the footer out unless include-footer, and links last", () => {
    const signed = { fromHeader: "Ann <ann@x.org>", text: "Body\n--\nAnn, ACME" };
    expect(buildGatewayContent(signed, opts({ showSender: true }), ["[a.pdf](/user_uploads/1/ab/a.pdf)"])).toBe(
      "From: Ann <ann@x.org>\nBody\n\n[a.pdf](/user_uploads/1/ab/a.pdf)",
    );
    expect(buildGatewayContent(signed, opts({ includeFooter: true }), [])).toBe("Body\n--\nAnn, ACME\n");
  });

  it("truncates the body, not the links, to 10,000 bytes", () => {
    const link = "[big.bin](/user_uploads/1/ab/big.bin)";
    const content = buildGatewayContent({ fromHeader: "", text: "é".repeat(9000) }, opts(), [link]);
    expect(Buffer.byteLength(content, "utf8")).toBeLessThanOrEqual(10_000);
    expect(content.endsWith(`[message truncated]\n${link}`)).toBe(true);
  });
});
