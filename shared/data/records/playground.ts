/** A code playground of an organization (Zulip's `RealmPlayground`; https://zulip.com/api/add-code-playground). */
export interface PlaygroundRecord {
  id: number;
  realm_id: number;
  name: string;
  pygments_language: string;
  /** RFC 6570 template with the one variable `{code}`. */
  url_template: string;
}
