// invert-dump's three views of an index (see dump_main.cc). Each prints to
// stdout with every term, field name and stored value escaped for display
// (tools/common/display.h), reports what it could not read where it would
// have printed it, and returns the exit status: 0, or 1 if anything could
// not be read (the rest is still printed).
#ifndef INVERT_TOOLS_DUMP_DUMP_H_
#define INVERT_TOOLS_DUMP_DUMP_H_

#include <cstdint>
#include <string>

#include "invert/index_reader.h"

namespace invert::tools {

// A term's doc freq and total term freq over the whole index and its first
// `limit` postings (global doc id, freq, first positions), each with the
// values of the stored field `show`. The statistics count deleted documents
// (a line after them says how many the index has), the postings skip them.
int DumpTerm(const IndexReader& reader, const std::string& field, const std::string& term,
             uint64_t limit, const std::string& show);

// Every document, in global doc id order, at most `limit`, one line each:
//   doc <global id>\t<field>=<value>\t<field>=<value>...
// with all its stored values in stored order; a deleted document (whose
// stored values a reader no longer returns) as
//   doc <global id>\t<deleted>
int DumpDocs(const IndexReader& reader, uint64_t limit);

// The stored values of the field "id" of every live document, one per line,
// escaped, sorted bytewise (as LC_ALL=C sort). Documents without an id are
// counted on stderr; deleted ones are left out.
int DumpIds(const IndexReader& reader);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_DUMP_DUMP_H_
