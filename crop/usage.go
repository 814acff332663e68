package crop

// cropUsage is sieve crop's usage with examples: the first guess,
// sieve crop report.json, is not how it is called.
const cropUsage = `sieve crop DOC [--report REPORT] [--citations FILE] --out BUNDLE [--blobs DIR | --source PDF | --screenshot PNG] [--padding N] [--dpi N] [--plain]

Examples (DOC: an artifact's evidence/document.ethos.json; REPORT: sieve verify's):
   sieve verify art/HOST/PAGE/evidence/document.ethos.json --citations citations.json --out report.json
   sieve crop art/HOST/PAGE/evidence/document.ethos.json --report report.json --out crops
   sieve crop DOC --report report.json --citations citations.json --out crops  # the quoted lines marked
   sieve crop DOC --report report.json --out crops --plain    # the crops unmarked
   sieve verify DOC --citations citations.json --crops crops  # verify and crop in one step`
