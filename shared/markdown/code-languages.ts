/**
 * Zulip puts the Pygments lexer name of a code block's language in
 * `data-code-language` (clients use it for "view in playground" and the
 * copy button), e.g. ```` ```py ```` → `Python`. This is the common subset of
 * Pygments' alias → name table; an unknown language is kept as typed, as
 * Zulip does (`inventedlanguage` → `data-code-language="inventedlanguage"`).
 */
const LEXER_NAMES: Record<string, string> = {};

function add(name: string, ...aliases: string[]): void {
  for (const alias of aliases) LEXER_NAMES[alias] = name;
}

add("Python", "python", "py", "sage", "python3", "py3", "bazel", "starlark");
add("Python 2.x", "python2", "py2");
add("Python console session", "pycon", "python-console");
add("Python Traceback", "pytb", "py3tb");
add("JavaScript", "javascript", "js", "mjs", "cjs");
add("TypeScript", "typescript", "ts");
add("JSX", "jsx", "react");
add("TSX", "tsx");
add("JSON", "json", "json-object");
add("Bash", "bash", "sh", "ksh", "zsh", "shell");
add("Bash Session", "console", "shell-session");
add("PowerShell", "powershell", "pwsh", "posh", "ps1", "psm1");
add("HTML", "html");
add("XML", "xml");
add("CSS", "css");
add("SCSS", "scss");
add("Java", "java");
add("Kotlin", "kotlin");
add("Scala", "scala");
add("C", "c");
add("C++", "cpp", "c++");
add("C#", "csharp", "c#", "cs");
add("Objective-C", "objective-c", "objectivec", "obj-c", "objc");
add("Swift", "swift");
add("Go", "go", "golang");
add("Rust", "rust", "rs");
add("Ruby", "ruby", "rb", "duby");
add("PHP", "php", "php3", "php4", "php5");
add("CSS+PHP", "css+php");
add("HTML+PHP", "html+php");
add("JavaScript+PHP", "javascript+php", "js+php");
add("XML+PHP", "xml+php");
add("Perl", "perl", "pl");
add("Lua", "lua");
add("R", "r", "splus", "s");
add("Julia", "julia", "jl");
add("Haskell", "haskell", "hs");
add("OCaml", "ocaml");
add("Elixir", "elixir", "ex", "exs");
add("Erlang", "erlang");
add("Clojure", "clojure", "clj");
add("Dart", "dart");
add("Zig", "zig");
add("SQL", "sql");
add("PostgreSQL SQL dialect", "postgresql", "postgres");
add("MySQL", "mysql");
add("YAML", "yaml", "yml");
add("TOML", "toml");
add("INI", "ini", "cfg", "dosini");
add("Docker", "docker", "dockerfile");
add("Makefile", "make", "makefile", "mf", "bsdmake");
add("Nginx configuration file", "nginx");
add("Diff", "diff", "udiff", "patch");
add("Markdown", "markdown", "md");
add("reStructuredText", "restructuredtext", "rst", "rest");
add("TeX", "tex", "latex");
add("GraphQL", "graphql");
add("Protocol Buffer", "protobuf", "proto");
add("Text only", "text", "plaintext", "txt");
add("Emacs Lisp", "emacs-lisp", "elisp", "emacs");
add("Common Lisp", "common-lisp", "cl", "lisp");
add("Scheme", "scheme", "scm");
add("VimL", "vim");
add("Fortran", "fortran", "f90");
add("MATLAB", "matlab");
add("Groovy", "groovy");
add("Terraform", "terraform", "tf", "hcl");
add("Coq", "coq");
add("Lean", "lean");
add("Agda", "agda");
add("Idris", "idris", "idr");
add("Nix", "nixos", "nix");
add("Verilog", "verilog", "v");
add("VHDL", "vhdl");
add("Assembly", "asm", "nasm");

/** The `data-code-language` value for a fence's language word (case-insensitive alias lookup). */
export function codeLanguageName(language: string): string {
  return LEXER_NAMES[language.toLowerCase()] ?? language;
}
