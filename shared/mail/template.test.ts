import { describe, expect, it } from "vitest";
import { html, layoutEmail, SafeHtml } from "./template.js";

describe("html", () => {
  it("escapes every interpolated value: & < > \" and '", () => {
    // Act
    const out = html`<a title="${`"x" & 'y'`}" data-n='${"it's"}'>${"<b>bold</b>"}</a>`;
    // Assess
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe(`<a title="&quot;x&quot; &amp; &#x27;y&#x27;" data-n='it&#x27;s'>&lt;b&gt;bold&lt;/b&gt;</a>`);
  });

  it("keeps nested SafeHtml as it is, escaping only the inner template's values", () => {
    // Act
    const inner = html`<b>${"A & B"}</b>`;
    const out = html`<p>${"<i>"} ${inner}</p>`;
    // Assess
    expect(out.value).toBe("<p>&lt;i&gt; <b>A &amp; B</b></p>");
  });

  it("joins arrays, escaping plain members and keeping SafeHtml members, at any depth", () => {
    // Act
    const names = ["<Ann>", "Bob & Co"];
    const out = html`<ul>${names.map((n) => html`<li>${n}</li>`)}</ul>${["<x>", [html`<br>`, "&"]]}`;
    // Assess
    expect(out.value).toBe("<ul><li>&lt;Ann&gt;</li><li>Bob &amp; Co</li></ul>&lt;x&gt;<br>&amp;");
  });

  it("writes nothing for null, undefined and false, and numbers and true as text", () => {
    // Act
    const out = html`[${null}|${undefined}|${false}|${0}|${true}|${12.5}]`;
    // Assess
    expect(out.value).toBe("[|||0|true|12.5]");
  });

  it("does not treat a string that looks like markup, or an object with a value field, as safe", () => {
    // Act
    const out = html`${{ value: "<script>" }}${"<script>"}`;
    // Assess
    expect(out.value).toBe("[object Object]&lt;script&gt;");
  });
});

describe("layoutEmail", () => {
  const realm = { name: `Ops <"R&D"> 'team'`, url: "https://chat.example.com" };

  it("puts the organization's name and site in both bodies, escaped in the HTML, and names it as sender", () => {
    // Act
    const out = layoutEmail(realm, { subject: "Welcome <you>", text: "Hello\n\n", html: html`<p>${"Hi <you>"}</p>` });
    // Assess
    expect(out.subject).toBe("Welcome <you>");
    expect(out.from_name).toBe(realm.name);
    expect(out.text).toBe(`Hello\n\n--\n${realm.name}\nhttps://chat.example.com\n`);
    expect(out.html).toContain("<title>Welcome &lt;you&gt;</title>");
    expect(out.html).toContain("<p>Hi &lt;you&gt;</p>");
    expect(out.html).toContain("Ops &lt;&quot;R&amp;D&quot;&gt; &#x27;team&#x27;");
    expect(out.html).toContain(`<a href="https://chat.example.com"`);
    expect(out.html).not.toContain(realm.name);
    expect(out.html).not.toContain("<you>");
  });
});
