import { type KeyboardEvent, useState } from "react";
import { Dialog } from "../dialog/index.js";
import type { CuratorQuestion } from "../library-types/index.js";
import { CustomPropertiesField, customDraftOf, parseCustomProperties } from "./custom-properties.js";
import { DialogButtons, TextField } from "./form-parts.js";
import { isSaveKey } from "./QuestionDialogs.js";

type Source = { title: string; url: string; kind: "academic" | "web" };

export type MetadataEdit = Pick<
  CuratorQuestion,
  "finished" | "author" | "sources" | "keywords" | "custom_metadata"
>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The keywords after typing `text` and pressing Enter or comma: trimmed, once each. */
export function withKeyword(keywords: readonly string[], text: string): string[] {
  const word = text.trim().replace(/,$/, "").trim();
  return word === "" || keywords.includes(word) ? [...keywords] : [...keywords, word];
}

/** The question metadata modal (spec 07 §1.3.8): finished, author, sources, keywords, custom properties. */
export function MetadataDialog({
  question,
  onSave,
  onClose,
}: {
  readonly question: CuratorQuestion;
  readonly onSave: (edit: MetadataEdit) => void;
  readonly onClose: () => void;
}) {
  const author = question.author ?? {};
  const [finished, setFinished] = useState(question.finished);
  const [person, setPerson] = useState({
    name: text(author.name),
    email: text(author.email),
    affiliation: text(author.affiliation),
    url: text(author.url),
  });
  const [sources, setSources] = useState<Source[]>(() =>
    (question.sources ?? []).map((source) => ({
      title: text(source.title) || text(source.name),
      url: text(source.url),
      kind: source["@type"] === "ScholarlyArticle" ? "academic" : "web",
    })),
  );
  const [keywords, setKeywords] = useState<string[]>([...(question.keywords ?? [])]);
  const [keywordText, setKeywordText] = useState("");
  const [custom, setCustom] = useState(() => customDraftOf(question.custom_metadata));
  const [customError, setCustomError] = useState<string>();
  const setP = (key: keyof typeof person) => (value: string) =>
    setPerson((old) => ({ ...old, [key]: value }));
  const save = () => {
    const optional = (key: string, value: string) => (value.trim() === "" ? {} : { [key]: value.trim() });
    const parsed = parseCustomProperties(custom);
    if ("problem" in parsed) return setCustomError(parsed.problem);
    const customProperties = parsed.values;
    const kept = sources.filter((source) => source.title.trim() !== "" || source.url.trim() !== "");
    onSave({
      finished,
      author:
        person.name.trim() === ""
          ? null
          : {
              "@type": "Person",
              name: person.name.trim(),
              ...optional("email", person.email),
              ...optional("affiliation", person.affiliation),
              ...optional("url", person.url),
            },
      sources:
        kept.length === 0
          ? null
          : kept.map((source) => ({
              "@type": source.kind === "academic" ? "ScholarlyArticle" : "WebPage",
              name: source.title.trim(),
              ...optional("url", source.url),
            })),
      keywords: keywords.length === 0 ? null : keywords,
      custom_metadata: Object.keys(customProperties).length === 0 ? null : customProperties,
    });
    onClose();
  };
  const onKeywordKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter" && event.key !== ",") return;
    event.preventDefault();
    setKeywords((old) => withKeyword(old, keywordText));
    setKeywordText("");
  };
  return (
    <Dialog
      title="Question Metadata"
      onClose={onClose}
      footer={<DialogButtons onCancel={onClose} onConfirm={save} confirmLabel="Save Metadata" />}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+S inside the dialog saves */}
      <div
        onKeyDown={(event) => {
          if (!isSaveKey(event)) return;
          event.preventDefault();
          save();
        }}
      >
        <label className="curator-check">
          <input type="checkbox" checked={finished} onChange={(event) => setFinished(event.target.checked)} />{" "}
          Mark as finished
        </label>
        <fieldset className="curator-fieldset">
          <legend>Author</legend>
          <TextField label="Author name" value={person.name} onChange={setP("name")} />
          <TextField label="Author email" type="email" value={person.email} onChange={setP("email")} />
          <TextField label="Affiliation" value={person.affiliation} onChange={setP("affiliation")} />
          <TextField label="Author URL" type="url" value={person.url} onChange={setP("url")} />
        </fieldset>
        <fieldset className="curator-fieldset">
          <legend>Sources</legend>
          {sources.map((source, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: sources have no id; their place is their identity
            <div key={index} className="curator-source">
              <div className="curator-field">
                <label htmlFor={`source-kind-${index}`}>Source {index + 1} kind</label>
                <select
                  id={`source-kind-${index}`}
                  value={source.kind}
                  onChange={(e) =>
                    setSources((old) =>
                      old.map((s, at) =>
                        at === index ? { ...s, kind: e.target.value as Source["kind"] } : s,
                      ),
                    )
                  }
                >
                  <option value="academic">Academic</option>
                  <option value="web">Web</option>
                </select>
              </div>
              <TextField
                label={`Source ${index + 1} title`}
                value={source.title}
                onChange={(value) =>
                  setSources((old) => old.map((s, at) => (at === index ? { ...s, title: value } : s)))
                }
              />
              <TextField
                label={`Source ${index + 1} URL`}
                type="url"
                value={source.url}
                onChange={(value) =>
                  setSources((old) => old.map((s, at) => (at === index ? { ...s, url: value } : s)))
                }
              />
              <button
                type="button"
                className="secondary-button"
                onClick={() => setSources((old) => old.filter((_, at) => at !== index))}
              >
                Remove source {index + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="secondary-button"
            onClick={() => setSources((old) => [...old, { title: "", url: "", kind: "web" }])}
          >
            Add Source
          </button>
        </fieldset>
        <fieldset className="curator-fieldset">
          <legend>Keywords</legend>
          <ul className="curator-chips" aria-label="Keywords">
            {keywords.map((word) => (
              <li key={word} className="curator-chip">
                {word}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove keyword ${word}`}
                  onClick={() => setKeywords((old) => old.filter((w) => w !== word))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
          <div className="curator-field">
            <label htmlFor="metadata-keyword">Add a keyword (Enter or comma)</label>
            <input
              id="metadata-keyword"
              value={keywordText}
              onChange={(event) => setKeywordText(event.target.value)}
              onKeyDown={onKeywordKey}
            />
          </div>
        </fieldset>
        <CustomPropertiesField draft={custom} onChange={setCustom} error={customError} />
      </div>
    </Dialog>
  );
}
