#pragma once
// Model names as people type them: Hugging Face ids with or without the organisation, -Instruct,
// -Chat and -it variants, spaces, dashes, dots and case, short names ("llama3 8b"), resolved to the
// catalog's concrete models; the nearest models, ranked, when none matches.

#include <string>
#include <string_view>
#include <vector>

#include "model/memory_model.hpp"

namespace gpufleet::detail {

struct ModelNameMatch {
  const NamedModel* model = nullptr;  // the catalog model the name resolved to; null when none did
  std::string how;  // "key", "hf_id", "name", "alias" or "normalized" (which spelling matched)
  // Nearest first when nothing (or more than one model) matched; at most 5.
  std::vector<const NamedModel*> suggestions;
};

// The form two spellings of one model share: the name after the last '/', lower case, its words and
// numbers joined by '-' ("Llama3.1 8B" -> "llama-3.1-8-b"), the variant words instruct, chat, it
// and hf left out (the same architecture).
std::string model_name_form(std::string_view typed);

ModelNameMatch resolve_model_name(const std::vector<NamedModel>& models, std::string_view typed);

// Why `typed` named no model: the nearest models and the way out for a model not in the catalog.
std::string unknown_model_message(const ModelNameMatch& match, std::string_view typed);

}  // namespace gpufleet::detail
