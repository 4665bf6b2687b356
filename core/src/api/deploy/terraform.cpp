// Terraform: AWS launch template + Auto Scaling group (mixed instances, price-capacity-optimized
// spot above an on-demand base), a GKE node pool with the accelerator, an Azure VM scale set.

#include "api/deploy/deploy_files.hpp"

namespace gpufleet::detail::deploy {
namespace {

std::string hcl_note(const Traced& t) { return "  # " + t.from; }
std::string ident(const std::string& name) {
  std::string id;
  for (char c : name) id += c == '-' || c == '.' ? '_' : c;
  return id;
}

std::string aws(const Site& s) {
  const std::string id = ident(s.name);
  std::string t =
      "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n "
      " }\n}\n\n";
  t += "provider \"aws\" {\n  region = " + quoted(s.region) + "\n}\n\n";
  t += "variable \"subnet_ids\" {\n  type = list(string)\n}\n\n";
  t += "variable \"gpu_ami_ssm_parameter\" {\n  type    = string\n  default = "
       "\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/nvidia/recommended/"
       "image_id\"\n}\n\n";
  t += "data \"aws_ssm_parameter\" \"gpu_ami\" {\n  name = var.gpu_ami_ssm_parameter\n}\n\n";
  t += "resource \"aws_launch_template\" \"" + id + "\" {\n  name_prefix   = \"" + s.name + "-\"\n";
  t += "  image_id      = data.aws_ssm_parameter.gpu_ami.value\n  instance_type = " +
       quoted(s.instance->name) + "\n";
  t += "  tag_specifications {\n    resource_type = \"instance\"\n    tags = {\n      "
       "\"gpufleet/deployment\" = " +
       quoted(s.name) + "\n    }\n  }\n}\n\n";
  t += "resource \"aws_autoscaling_group\" \"" + id + "\" {\n  name_prefix         = \"" + s.name +
       "-\"\n";
  t += "  vpc_zone_identifier = var.subnet_ids\n";
  t += "  min_size            = " + num(s.min_instances.value) + hcl_note(s.min_instances) + "\n";
  t += "  max_size            = " + num(s.max_instances.value) + hcl_note(s.max_instances) + "\n";
  t += "  desired_capacity    = " + num(s.instances.value) + hcl_note(s.instances) + "\n\n";
  t += "  mixed_instances_policy {\n    instances_distribution {\n";
  t += "      on_demand_base_capacity                  = " + num(s.on_demand_base.value) +
       hcl_note(s.on_demand_base) + "\n";
  t += "      on_demand_percentage_above_base_capacity = " + num(s.on_demand_above_base_pct.value) +
       hcl_note(s.on_demand_above_base_pct) + "\n";
  t += "      spot_allocation_strategy                 = \"price-capacity-optimized\"  # no "
       "spot_max_price: spot is paid at its current price\n";
  t += "    }\n    launch_template {\n      launch_template_specification {\n        "
       "launch_template_id = aws_launch_template." +
       id + ".id\n        version            = \"$Latest\"\n      }\n";
  for (const std::string& type : s.fallback_types)
    t += "      override {\n        instance_type = " + quoted(type) + "\n      }\n";
  t += "    }\n  }\n}\n";
  return t;
}

std::string gcp_pool(const Site& s, const std::string& id, bool spot, const Traced& nodes,
                     const Traced* min, const Traced* max) {
  std::string t = "resource \"google_container_node_pool\" \"" + id + "\" {\n  name     = \"" + id +
                  "\"\n  cluster  = var.cluster\n";
  t += "  location = " + quoted(s.region) + "\n";
  t += "  node_count = " + num(nodes.value) + hcl_note(nodes) + "\n";
  if (min && max)
    t += "  autoscaling {\n    min_node_count = " + num(min->value) + hcl_note(*min) +
         "\n    max_node_count = " + num(max->value) + hcl_note(*max) + "\n  }\n";
  t += "  node_config {\n    machine_type = " + quoted(gcp_machine_type(*s.instance)) +
       "\n    spot         = " + (spot ? "true" : "false") + "\n";
  t += "    guest_accelerator {\n      type  = " + quoted(gcp_accelerator(*s.instance)) +
       "\n      count = " + num(s.gpus_per_instance.value) + hcl_note(s.gpus_per_instance) +
       "\n      gpu_driver_installation_config {\n        gpu_driver_version = \"DEFAULT\"\n      "
       "}\n    }\n";
  t += "    labels = {\n      \"gpufleet/deployment\" = " + quoted(s.name) + "\n    }\n";
  t += "    taint {\n      key    = \"nvidia.com/gpu\"\n      value  = \"present\"\n      effect = "
       "\"NO_SCHEDULE\"\n    }\n  }\n}\n";
  return t;
}

std::string gcp(const Site& s) {
  std::string t =
      "terraform {\n  required_providers {\n    google = {\n      source = \"hashicorp/google\"\n  "
      "  }\n  }\n}\n\n";
  t += "variable \"cluster\" {\n  type = string\n}\n\n";
  const std::string id = ident(s.name);
  const bool spot = s.pricing != "on_demand";
  if (spot && s.on_demand_base.value > 0) {
    t += gcp_pool(s, id + "_on_demand", false, s.on_demand_base, nullptr, nullptr) + "\n";
    Traced above{s.instances.value - s.on_demand_base.value,
                 "instances above the on-demand base: " + s.instances.from + " less " +
                     s.on_demand_base.from};
    Traced lo{std::max(0.0, s.min_instances.value - s.on_demand_base.value),
              "the least above the base: " + s.min_instances.from + " less the base"};
    Traced hi{std::max(0.0, s.max_instances.value - s.on_demand_base.value),
              "the most above the base: " + s.max_instances.from + " less the base"};
    t += gcp_pool(s, id + "_spot", true, above, &lo, &hi);
  } else {
    t += gcp_pool(s, id, spot, s.instances, &s.min_instances, &s.max_instances);
  }
  return t;
}

std::string azure(const Site& s) {
  const std::string id = ident(s.name);
  const bool spot = s.pricing != "on_demand";
  std::string t =
      "terraform {\n  required_providers {\n    azurerm = {\n      source = "
      "\"hashicorp/azurerm\"\n    }\n  }\n}\n\n";
  t += "provider \"azurerm\" {\n  features {}\n}\n\n";
  t += "variable \"resource_group_name\" {\n  type = string\n}\n\nvariable \"subnet_id\" {\n  type "
       "= string\n}\n\n";
  t += "variable \"admin_ssh_public_key\" {\n  type = string\n}\n\n";
  t += "resource \"azurerm_linux_virtual_machine_scale_set\" \"" + id +
       "\" {\n  name                = " + quoted(s.name) + "\n";
  t += "  resource_group_name = var.resource_group_name\n  location            = " +
       quoted(s.region) + "\n";
  t += "  sku                 = " + quoted(s.instance->name) + "\n";
  t += "  instances           = " + num(s.instances.value) + hcl_note(s.instances) + "\n";
  t += "  admin_username      = \"azureuser\"\n";
  if (spot) {
    t += "  priority            = \"Spot\"\n  eviction_policy     = \"Delete\"\n";
    t += "  max_bid_price       = -1  # -1: no maximum price, spot is paid at its current price\n";
  }
  t += "\n  admin_ssh_key {\n    username   = \"azureuser\"\n    public_key = "
       "var.admin_ssh_public_key\n  }\n\n";
  t += "  source_image_reference {  # Ubuntu 22.04; install the NVIDIA driver (NVIDIA GPU Driver "
       "Extension)\n"
       "    publisher = \"Canonical\"\n    offer     = \"0001-com-ubuntu-server-jammy\"\n    sku   "
       "    = \"22_04-lts-gen2\"\n"
       "    version   = \"latest\"\n  }\n\n";
  t += "  os_disk {\n    storage_account_type = \"Premium_LRS\"\n    caching              = "
       "\"ReadWrite\"\n  }\n\n";
  t += "  network_interface {\n    name    = \"" + s.name +
       "-nic\"\n    primary = true\n    ip_configuration {\n      name      = \"internal\"\n"
       "      primary   = true\n      subnet_id = var.subnet_id\n    }\n  }\n}\n";
  if (spot && s.on_demand_base.value > 0)
    t += "\n# The on-demand base (" + num(s.on_demand_base.value) + " instances, " +
         s.on_demand_base.from +
         ") is a second scale set like this one without priority, eviction_policy and "
         "max_bid_price.\n";
  return t;
}

}  // namespace

std::vector<File> terraform(const Site& s) {
  const std::string& p = s.instance->provider;
  std::string t = header(s, p == "aws"   ? "Terraform: AWS launch template and Auto Scaling group"
                            : p == "gcp" ? "Terraform: GKE node pool with the accelerator"
                                         : "Terraform: Azure Linux VM scale set");
  t += "\n" + (p == "aws" ? aws(s) : p == "gcp" ? gcp(s) : azure(s));
  return {{"terraform", "terraform/" + s.name + ".tf", "text/x-hcl", t}};
}

}  // namespace gpufleet::detail::deploy
