#pragma once
// Text for an HTML page: escaping and the printing of numbers, so that every value a report
// shows is safe to inline and non-finite values read as "nan", "inf" and "-inf".
#include <string>
#include <string_view>

#include <parity/core/markup_escape.hpp>  // markup_escaped, for every page writer

namespace parity::report {

// The shortest decimal text that reads back as `v` exactly ("0.408203125", "1.9e-06");
// "nan", "inf" or "-inf" when `v` is not finite.
std::string format_exact(double v);

// A measured value for a reader: an integer-valued `v` below 2^53 in full ("20261129", "384"),
// anything else to 4 significant digits ("0.6215", "1.907e-06"); "nan", "inf", "-inf" when not
// finite. Differences and errors are read by their order of magnitude and leading digits; the
// exact value stays in the JSON (and in the hover title, see field_text.hpp's display).
std::string format_measure(double v);

// A value of a JSON report for a reader: the shortest text that reads back as the same float32
// when `v` is one (a float32 parameter or result: 9.99999997e-07 is "1e-06"), else format_measure.
std::string format_value(double v);

// `v` rounded to `digits` significant digits (printf %.*g); "nan", "inf", "-inf" when
// not finite. For axis labels and summaries, where exactness is not the point.
std::string format_short(double v, int digits = 3);

}  // namespace parity::report
