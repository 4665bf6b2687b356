#include "catalog/model_names.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "gpufleet/names.hpp"
#include "support/json_reader.hpp"

namespace gpufleet::detail {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::vector<std::string> words(std::string_view typed) {
  const std::size_t slash = typed.rfind('/');
  if (slash != std::string_view::npos) typed.remove_prefix(slash + 1);
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    static const std::vector<std::string> kVariants{"instruct", "chat", "it", "hf"};
    if (!word.empty() && std::find(kVariants.begin(), kVariants.end(), word) == kVariants.end())
      out.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < typed.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(typed[i])));
    // A dot inside a number is part of it (3.1, 2.5); a letter after a digit starts a word (8b).
    const bool decimal_point = c == '.' && !word.empty() && digit(word.back()) &&
                               i + 1 < typed.size() && digit(typed[i + 1]);
    if (decimal_point) {
      word += c;
    } else if (letter(c) || digit(c)) {
      if (!word.empty() && digit(c) != digit(word.front())) flush();
      word += c;
    } else {
      flush();
    }
  }
  flush();
  return out;
}

std::string join(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& w : list) out += (out.empty() ? "" : "-") + w;
  return out;
}

// The spellings of a model the catalog knows: its key, its Hugging Face id and its aliases.
std::vector<std::string> spellings(const NamedModel& m) {
  std::vector<std::string> out{m.key, m.hf_id};
  out.insert(out.end(), m.aliases.begin(), m.aliases.end());
  return out;
}

// How far `typed` is from a model: the typed words its names lack (a size or a version matter
// most), then the edit distance of the nearest name's form.
std::pair<std::size_t, std::size_t> remoteness(const std::vector<std::string>& typed,
                                               const NamedModel& m) {
  std::pair<std::size_t, std::size_t> best{SIZE_MAX, SIZE_MAX};
  const std::string want = join(typed);
  for (const auto& name : spellings(m)) {
    const auto have = words(name);
    std::size_t missing = 0;
    for (const auto& w : typed) missing += std::find(have.begin(), have.end(), w) == have.end();
    best = std::min(best, std::pair{missing, edit_distance(want, join(have))});
  }
  return best;
}

}  // namespace

std::string model_name_form(std::string_view typed) { return join(words(typed)); }

ModelNameMatch resolve_model_name(const std::vector<NamedModel>& models, std::string_view typed) {
  ModelNameMatch match;
  for (const NamedModel& m : models) {
    if (iequals(m.key, typed)) return {&m, "key", {}};
  }
  for (const NamedModel& m : models) {
    if (iequals(m.hf_id, typed)) return {&m, "hf_id", {}};
    // The catalog's own name for it, as its lists show it ("Meta Llama 2 7B").
    if (iequals(m.name, typed)) return {&m, "name", {}};
    for (const auto& alias : m.aliases)
      if (iequals(alias, typed)) return {&m, "alias", {}};
  }
  const std::vector<std::string> typed_words = words(typed);
  const std::string form = join(typed_words);
  std::vector<const NamedModel*> same;
  for (const NamedModel& m : models) {
    const auto names = spellings(m);
    if (!form.empty() && std::any_of(names.begin(), names.end(), [&](const std::string& n) {
          return model_name_form(n) == form;
        }))
      same.push_back(&m);
  }
  if (same.size() == 1) return {same.front(), "normalized", {}};
  if (same.size() > 1) {
    match.suggestions = same;
    return match;
  }
  // Nearest first; a model shares at least one word of more than one letter with the typed name.
  std::vector<std::tuple<std::pair<std::size_t, std::size_t>, std::size_t, const NamedModel*>>
      ranked;
  std::size_t order = 0;
  const std::size_t meaningful = std::count_if(typed_words.begin(), typed_words.end(),
                                               [](const std::string& w) { return w.size() > 1; });
  for (const NamedModel& m : models) {
    const auto r = remoteness(typed_words, m);
    const bool shares = r.first < typed_words.size() && meaningful > 0;
    if (shares || r.second <= std::max<std::size_t>(2, form.size() / 4))
      ranked.emplace_back(r, order, &m);
    ++order;
  }
  std::sort(ranked.begin(), ranked.end());
  for (const auto& [r, o, m] : ranked) {
    if (match.suggestions.size() == 5) break;
    match.suggestions.push_back(m);
  }
  return match;
}

std::string unknown_model_message(const ModelNameMatch& match, std::string_view typed) {
  std::string list;
  for (const NamedModel* m : match.suggestions)
    list += (list.empty() ? "" : ", ") + m->key + " (" + m->name + ")";
  std::string message =
      "\"" + std::string(typed) + "\" is not a model of the catalog (model_config.json)";
  if (!match.suggestions.empty()) message += "; did you mean " + list + "?";
  return message +
         " A model not in the catalog: give its Hugging Face config.json as model.hf_config (the "
         "CLI's --hf-config "
         "FILE; the page's \"paste config.json\"); catalog show models lists the catalog's models";
}

}  // namespace gpufleet::detail
