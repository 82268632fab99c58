#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and encoding.h then includes the system's ICU headers,
// which clash with the ICU headers Foundation ships. Nothing here uses ICU: the only layout
// this changes is xmlCharEncodingHandler's, which Swift code never touches.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
