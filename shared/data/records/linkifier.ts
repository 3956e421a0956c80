/** A linkifier of an organization (Zulip's `RealmFilter`; https://zulip.com/api/add-linkifier). */
export interface LinkifierRecord {
  id: number;
  /** RE2 regular expression; its named groups are the template's variables. */
  pattern: string;
  /** RFC 6570 URL template. */
  url_template: string;
}

/** Every linkifier of a realm in its order, with a version every change is conditioned on. */
export interface RealmLinkifiersRecord {
  realm_id: number;
  /** 0 when the realm never had linkifiers (no item). */
  version: number;
  linkifiers: LinkifierRecord[];
}
