// ajv-validate.mjs checks sieve's JSON Schemas with an independent
// validator (Ajv, draft 2020-12): every EEF example under
// schemas/testdata/eef (valid/ must pass, invalid/ must fail), the EEF
// bundles of the render golden files, and the verify and anchor golden
// reports, and the crop descriptors of crop/testdata. Run it through
// scripts/ajv-validate.sh, which installs Ajv.
//
// usage: node scripts/ajv-validate.mjs REPO_ROOT AJV_NODE_MODULES
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, basename } from "node:path";
import { createRequire } from "node:module";

const [root, modules] = process.argv.slice(2);
const require = createRequire(join(modules, "noop.js"));
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;

const base = "https://github.com/sieve-dev/sieve/schemas/";
const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, strictTuples: false, allErrors: true });
addFormats(ajv);
const schemaDir = join(root, "schemas");
for (const f of readdirSync(schemaDir).filter((f) => f.endsWith(".schema.json")).sort()) {
  ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, f), "utf8")));
}
// The line schemas sieve-verify and sieve-anchor write live in the report
// schemas' $defs, as in schemas/schemas.go.
const lines = {
  "ethos-check-line": "ethos-verification-report.schema.json#/$defs/check_record",
  "ethos-anchor-line": "ethos-evidence-anchor-report.schema.json#/$defs/anchor_record",
};
const validator = (name) => ajv.getSchema(base + (lines[name] ?? name + ".schema.json"));

let failed = 0, checked = 0;
function check(name, file, doc, wantValid) {
  const v = validator(name);
  if (!v) { console.error(`FAIL ${file}: no schema ${name}`); failed++; return; }
  const ok = v(doc);
  checked++;
  if (ok !== wantValid) {
    failed++;
    console.error(`FAIL ${file}: ${wantValid ? ajv.errorsText(v.errors) : "passed " + name + " but must not"}`);
  }
}

for (const dir of ["valid", "invalid"]) {
  const d = join(schemaDir, "testdata", "eef", dir);
  for (const f of readdirSync(d).filter((f) => f.endsWith(".json")).sort()) {
    check(f.split("--")[0], join(d, f), JSON.parse(readFileSync(join(d, f), "utf8")), dir === "valid");
  }
}

const golden = join(root, "render", "testdata", "golden");
for (const page of readdirSync(golden).sort()) {
  const ev = join(golden, page, "evidence");
  if (!existsSync(ev)) continue;
  check("ethos-document", join(ev, "document.ethos.json"), JSON.parse(readFileSync(join(ev, "document.ethos.json"), "utf8")), true);
  check("ethos-security-report", join(ev, "security_report.json"), JSON.parse(readFileSync(join(ev, "security_report.json"), "utf8")), true);
  const pointer = join(ev, "source.json");
  if (existsSync(pointer)) check("ethos-source-pointer", pointer, JSON.parse(readFileSync(pointer, "utf8")), true);
  const profile = join(ev, "profiles", "ethos-deterministic-v1.json");
  if (existsSync(profile)) check("ethos-deterministic-profile", profile, JSON.parse(readFileSync(profile, "utf8")), true);
  for (const line of readFileSync(join(ev, "chunks.jsonl"), "utf8").split("\n").filter((l) => l.trim())) {
    check("ethos-chunks", join(ev, "chunks.jsonl"), JSON.parse(line), true);
  }
}

// Golden reports of verify/ and anchor/: NAME.<schema>.json.
for (const dir of ["verify/testdata", "anchor/testdata"]) {
  const d = join(root, dir);
  if (!existsSync(d)) continue;
  for (const f of readdirSync(d).sort()) {
    const m = /\.(ethos-[a-z-]+)\.json$/.exec(f);
    if (m) check(m[1], join(d, f), JSON.parse(readFileSync(join(d, f), "utf8")), true);
    const l = /\.(ethos-[a-z-]+-line)\.jsonl$/.exec(f);
    if (l) for (const line of readFileSync(join(d, f), "utf8").split("\n").filter((x) => x.trim())) check(l[1], join(d, f), JSON.parse(line), true);
  }
}

// Crop descriptors sieve writes (crop/testdata: NAME.<schema>.jsonl, one
// descriptor a line).
const cropDir = join(root, "crop", "testdata");
if (existsSync(cropDir)) {
  for (const f of readdirSync(cropDir).sort()) {
    const m = /\.(ethos-crop-descriptor)\.jsonl$/.exec(f);
    if (m) for (const line of readFileSync(join(cropDir, f), "utf8").split("\n").filter((x) => x.trim())) check(m[1], join(cropDir, f), JSON.parse(line), true);
  }
}

console.log(`ajv: ${checked} documents checked, ${failed} failed`);
process.exit(failed ? 1 : 0);
