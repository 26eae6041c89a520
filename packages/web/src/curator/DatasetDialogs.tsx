import { useState } from "react";
import { apiFetch, queryString } from "../api/index.js";
import { dbQuery } from "../database/index.js";
import { Dialog } from "../dialog/index.js";
import type { ApiCreateBenchmark, Curation } from "../library-types/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { patchCuration } from "./curation-api.js";
import type { MetadataChanges } from "./curation-store.js";
import { CustomPropertiesField, customDraftOf, parseCustomProperties } from "./custom-properties.js";
import { DialogButtons, keywordsOf, problemOf, TextField } from "./form-parts.js";

/** The licenses the dataset metadata offers (spec 07 §1.3.8). */
export const LICENSES = [
  "MIT",
  "Apache-2.0",
  "GPL-3.0",
  "BSD-3-Clause",
  "BSD-2-Clause",
  "ISC",
  "LGPL-2.1",
  "MPL-2.0",
  "CC-BY-4.0",
  "CC-BY-SA-4.0",
  "CC0-1.0",
  "Proprietary",
  "Other",
] as const;

/** "Create New Benchmark": stores an empty benchmark and makes it the working one. */
export function CreateBenchmarkDialog({
  db,
  replacing,
  onCreated,
  onClose,
}: {
  readonly db: string | null;
  /** A benchmark is loaded: say it is set aside (never deleted). */
  readonly replacing: boolean;
  readonly onCreated: (benchmark: WorkingBenchmark) => void;
  readonly onClose: () => void;
}) {
  const [form, setForm] = useState({ name: "", description: "", version: "1.0.0", creator: "", email: "" });
  const [nameError, setNameError] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (value: string) => setForm((old) => ({ ...old, [key]: value }));
  const create = async () => {
    const name = form.name.trim();
    if (name === "") return setNameError("Dataset name is required");
    setNameError(undefined);
    setBusy(true);
    try {
      const body: ApiCreateBenchmark = {
        name,
        ...(form.description.trim() === "" ? {} : { description: form.description.trim() }),
        ...(form.version.trim() === "" ? {} : { version: form.version.trim() }),
        ...(form.creator.trim() === "" ? {} : { creator: form.creator.trim() }),
      };
      await apiFetch(`/api/v2/benchmarks${queryString({ db: dbQuery(db) })}`, { body });
      const benchmark = { db, name };
      if (form.creator.trim() !== "" && form.email.trim() !== "")
        await patchCuration(benchmark, {
          metadata: { creator: { "@type": "Person", name: form.creator.trim(), email: form.email.trim() } },
        });
      onCreated(benchmark);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Create New Benchmark"
      onClose={onClose}
      footer={
        <DialogButtons onCancel={onClose} onConfirm={() => void create()} confirmLabel="Create" busy={busy} />
      }
    >
      {replacing ? (
        <p className="curator-note">
          The benchmark loaded now is set aside (it stays stored in the database; unsaved drafts of it are
          kept).
        </p>
      ) : null}
      <TextField label="Dataset name" required value={form.name} onChange={set("name")} error={nameError} />
      <TextField label="Description" multiline value={form.description} onChange={set("description")} />
      <TextField label="Version" value={form.version} onChange={set("version")} />
      <TextField label="Creator name" value={form.creator} onChange={set("creator")} />
      <TextField label="Creator email" type="email" value={form.email} onChange={set("email")} />
      {problem === undefined ? null : (
        <p className="curator-error" role="alert">
          {problem}
        </p>
      )}
    </Dialog>
  );
}

/** The dataset metadata (`DatasetMetadata` of the curator routes). */
type DatasetMetadata = Curation["metadata"];
type Creator = Exclude<DatasetMetadata["creator"], string | null>;

const textOf = (value: unknown): string => (typeof value === "string" ? value : "");

function creatorForm(creator: DatasetMetadata["creator"]) {
  if (creator === null) return { kind: "Person" as const, name: "", email: "", affiliation: "", url: "" };
  if (typeof creator === "string")
    return { kind: "Person" as const, name: creator, email: "", affiliation: "", url: "" };
  return {
    kind: creator["@type"],
    name: creator.name,
    email: textOf(creator.email),
    affiliation: textOf(creator["@type"] === "Person" ? creator.affiliation : creator.description),
    url: textOf(creator.url),
  };
}

function creatorOf(form: ReturnType<typeof creatorForm>): Creator | null {
  if (form.name.trim() === "") return null;
  const optional = (key: string, value: string) => (value.trim() === "" ? {} : { [key]: value.trim() });
  return {
    "@type": form.kind,
    name: form.name.trim(),
    ...optional("email", form.email),
    ...optional("url", form.url),
    ...optional(form.kind === "Person" ? "affiliation" : "description", form.affiliation),
  };
}

/** "Dataset Metadata" (spec 07 §1.3.8): edits are saved with the next autosave (the server stamps dateModified). */
export function DatasetMetadataDialog({
  metadata,
  onSave,
  onClose,
}: {
  readonly metadata: DatasetMetadata;
  readonly onSave: (changes: MetadataChanges) => void;
  readonly onClose: () => void;
}) {
  const [form, setForm] = useState({
    name: metadata.name,
    version: metadata.version,
    description: metadata.description,
    license: metadata.license ?? "",
    keywords: metadata.keywords.join(", "),
    publisher: metadata.publisher ?? "",
  });
  const [custom, setCustom] = useState(() => customDraftOf(metadata.custom));
  const [customError, setCustomError] = useState<string>();
  const [creator, setCreator] = useState(creatorForm(metadata.creator));
  const [nameError, setNameError] = useState<string>();
  const set = (key: keyof typeof form) => (value: string) => setForm((old) => ({ ...old, [key]: value }));
  const setC = (key: keyof typeof creator) => (value: string) =>
    setCreator((old) => ({ ...old, [key]: value }));
  const save = () => {
    if (form.name.trim() === "") return setNameError("Dataset name is required");
    const parsed = parseCustomProperties(custom);
    if ("problem" in parsed) return setCustomError(parsed.problem);
    onSave({
      name: form.name.trim(),
      version: form.version.trim(),
      description: form.description,
      license: form.license === "" ? null : form.license,
      keywords: keywordsOf(form.keywords),
      publisher: form.publisher.trim() === "" ? null : form.publisher.trim(),
      creator: creatorOf(creator),
      custom: parsed.values,
    });
    onClose();
  };
  return (
    <Dialog
      title="Dataset Metadata"
      onClose={onClose}
      footer={<DialogButtons onCancel={onClose} onConfirm={save} confirmLabel="Save Metadata" />}
    >
      <p className="curator-note">
        Renaming here changes the name written in the checkpoint; the stored benchmark keeps its database
        name.
      </p>
      <TextField label="Name" required value={form.name} onChange={set("name")} error={nameError} />
      <TextField label="Version" value={form.version} onChange={set("version")} />
      <TextField label="Description" multiline value={form.description} onChange={set("description")} />
      <div className="curator-field">
        <label htmlFor="dataset-license">License</label>
        <select id="dataset-license" value={form.license} onChange={(e) => set("license")(e.target.value)}>
          <option value="">(none)</option>
          {LICENSES.map((license) => (
            <option key={license} value={license}>
              {license}
            </option>
          ))}
        </select>
      </div>
      <TextField label="Keywords (comma-separated)" value={form.keywords} onChange={set("keywords")} />
      <fieldset className="curator-fieldset">
        <legend>Creator</legend>
        <div className="curator-field">
          <label htmlFor="dataset-creator-kind">Creator type</label>
          <select
            id="dataset-creator-kind"
            value={creator.kind}
            onChange={(e) => setC("kind")(e.target.value as "Person" | "Organization")}
          >
            <option value="Person">Person</option>
            <option value="Organization">Organization</option>
          </select>
        </div>
        <TextField label="Creator name" value={creator.name} onChange={setC("name")} />
        <TextField label="Creator email" type="email" value={creator.email} onChange={setC("email")} />
        <TextField
          label={creator.kind === "Person" ? "Affiliation" : "Description"}
          value={creator.affiliation}
          onChange={setC("affiliation")}
        />
        <TextField label="Creator URL" type="url" value={creator.url} onChange={setC("url")} />
      </fieldset>
      <TextField label="Publisher" value={form.publisher} onChange={set("publisher")} />
      <CustomPropertiesField draft={custom} onChange={setCustom} error={customError} />
    </Dialog>
  );
}
