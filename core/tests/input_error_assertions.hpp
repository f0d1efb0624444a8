#pragma once
// What tests check of a call parity refuses with an InputError: a gtest predicate,
// EXPECT_TRUE(throws_input_error([&] { check_contract(d, c); }, "case.dims")), and the message.
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>

#include <parity/core/error.hpp>

namespace parity {

// Success when f() throws an InputError whose message holds `text`; otherwise a failure that
// quotes the message, names the other exception f() threw, or says that f() returned.
inline ::testing::AssertionResult throws_input_error(const std::function<void()>& f, const std::string& text) {
  try {
    f();
  } catch (const InputError& e) {
    if (std::string(e.what()).find(text) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "InputError \"" << e.what() << "\" does not hold \"" << text << "\"";
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "\"" << e.what() << "\" thrown, not an InputError";
  } catch (...) {
    return ::testing::AssertionFailure() << "a non-std exception thrown, not an InputError";
  }
  return ::testing::AssertionFailure() << "no InputError (one holding \"" << text << "\" expected)";
}

// The message of the InputError f() throws, or `none` when f() returns. Any other exception
// propagates.
inline std::string input_error_message(const std::function<void()>& f, const std::string& none) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return none;
}

}  // namespace parity
