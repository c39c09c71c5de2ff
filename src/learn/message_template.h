#pragma once

// What a log message says with the values taken out: its template, and the exception classes
// a record names. Two lines that differ only in values (a node, a size, a duration, an index,
// a shard, an id, an address, a path) give the same template; different messages give
// different ones. Made for what ES writes into its messages, as Drain's masking is made for
// logs in general: what ES brackets (`[orders-2026.11][3]`, `[16.2gb]`, `[es-data-2]`; a
// setting's name stays), node descriptors (`{es-data-2}{aB3..}{10.0.0.3}{10.0.0.3:9300}{dimr}`),
// tokens holding a digit (sizes, durations, addresses, UUIDs), a `key=value`'s value, paths,
// long ids, and the writing node's and cluster's names become `<*>`; a long message is cut. Exception classes are read from the whole text (message and exception text): Java
// class names (`org.elasticsearch.search.TooManyScrollContextsException`, `Caused by:`
// lines, `nested: XException[`, the classes inside a stack trace's message lines; frames are
// passed over) and ES's REST error types (`circuit_breaking_exception`), each by its simple
// CamelCase name, so both spellings of one class are one. Pure functions, thread-safe.

#include <string>
#include <string_view>
#include <vector>


namespace foreshock {

inline constexpr size_t kMaxTemplateBytes = 240;

// The template of `message` (its first line only), given the node and cluster that wrote it.
std::string TemplateOf(std::string_view message, std::string_view node = {}, std::string_view cluster = {});

// The exception classes `text` names, by simple name, in the order they first appear (a
// wrapper before what it wraps: "Caused by:" comes later in a trace).
std::vector<std::string> ExceptionClassesIn(std::string_view text);

}  // namespace foreshock
