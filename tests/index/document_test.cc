// Tests of Field's constructors: they view the caller's bytes without copying,
// and reject (at compile time) a temporary std::string that would be gone
// before AddDocument() reads it.
#include "invert/document.h"

#include <string>
#include <string_view>
#include <utility>

#include "gtest/gtest.h"

namespace invert {
namespace {

// Whether Field::Text / Keyword / Stored accept a name of type N and a value
// of type V (as expressions: N&& is an rvalue, N& an lvalue).
template <typename N, typename V>
constexpr bool kTextAccepts = requires(N&& name, V&& value) {
  Field::Text(std::forward<N>(name), std::forward<V>(value));
};
template <typename N, typename V>
constexpr bool kKeywordAccepts = requires(N&& name, V&& value) {
  Field::Keyword(std::forward<N>(name), std::forward<V>(value));
};
template <typename N, typename V>
constexpr bool kStoredAccepts = requires(N&& name, V&& value) {
  Field::Stored(std::forward<N>(name), std::forward<V>(value));
};

// Lvalue strings, string views and literals outlive the full-expression.
static_assert(kTextAccepts<const char (&)[5], std::string&>);
static_assert(kTextAccepts<const char (&)[5], const std::string&>);
static_assert(kTextAccepts<const char (&)[5], std::string_view>);
static_assert(kTextAccepts<const char (&)[5], const char (&)[4]>);
static_assert(kTextAccepts<std::string&, std::string_view&>);
static_assert(kKeywordAccepts<const char (&)[3], std::string&>);
static_assert(kKeywordAccepts<std::string_view, std::string_view>);
static_assert(kStoredAccepts<std::string&, const std::string&>);
static_assert(kStoredAccepts<const char (&)[2], const char (&)[4]>);

// A temporary or moved std::string, as the value or as the name, does not.
static_assert(!kTextAccepts<const char (&)[5], std::string>);
static_assert(!kTextAccepts<const char (&)[5], std::string&&>);
static_assert(!kTextAccepts<std::string, std::string_view>);
static_assert(!kKeywordAccepts<const char (&)[3], std::string>);
static_assert(!kKeywordAccepts<std::string, std::string&>);
static_assert(!kStoredAccepts<const char (&)[2], std::string>);
static_assert(!kStoredAccepts<std::string&&, std::string_view>);

TEST(DocumentTest, FieldsViewTheCallersBytes) {
  const std::string name = "body";
  std::string value = "some words";
  const Field text = Field::Text(name, value);
  EXPECT_EQ(text.name().data(), name.data());
  EXPECT_EQ(text.text().data(), value.data());
  EXPECT_EQ(text.kind(), Field::Kind::kText);
  EXPECT_TRUE(text.type().tokenized);

  FieldType tokenized_keyword = FieldType::Keyword();
  tokenized_keyword.tokenized = true;
  const Field keyword = Field::Keyword("id", value, tokenized_keyword);
  EXPECT_EQ(keyword.text().data(), value.data());
  EXPECT_FALSE(keyword.type().tokenized) << "Keyword() forces tokenized off";

  const Field stored = Field::Stored("raw", std::string_view(value).substr(5));
  EXPECT_EQ(stored.text(), "words");
  ASSERT_TRUE(stored.stored_value().has_value());
  EXPECT_EQ(stored.stored_value()->data(), value.data() + 5);
}

}  // namespace
}  // namespace invert
