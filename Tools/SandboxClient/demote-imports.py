"""Makes the generated files' `public import` lines plain imports where the file's declarations
do not use the import: swift-openapi-generator 1.14 writes them into every file and silences the
warning only for Swift 6.4 and later (`@diagnose`), and the project builds without warnings."""
import pathlib
import re
import sys

IMPORT = re.compile(r"^((?:@_spi\(Generated\) )?)public import (?:struct )?([\w.]+)$", re.M)

for path in sorted(pathlib.Path(sys.argv[1]).glob("*.swift")):
    text = path.read_text()
    body = IMPORT.sub("", text)

    def demote(match):
        name = match.group(2)
        used = re.search(re.escape(name) + (r"\b" if "." in name else r"\."), body)
        return match.group(0) if used else match.group(0).replace("public import", "import")

    path.write_text(IMPORT.sub(demote, text))
