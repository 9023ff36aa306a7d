runbook {
  description = "every block and meta-argument"
}

variable "ports" {
  type        = list(string)
  default     = ["mlx5_0/1"]
  description = "verbsPorts"
  validation {
    condition     = length(var.ports) > 0
    error_message = "At least one port."
  }
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

locals {
  joined = join(" ", var.ports)
}

step "shell" "first" {
  hosts               = "all:!gpfs03"
  run_once            = false
  when                = host.name != "x"
  serial              = "50%"
  timeout             = "90s"
  retries             = 2
  delay               = "1s"
  until               = self.rc == 0
  on_failure          = "continue"
  max_fail_percentage = 50
  become              = true
  tags                = ["config"]
  changed_when        = self.rc == 0
  failed_when         = self.rc > 1
  command             = "echo ${local.joined}"
}

step "assert" "second" {
  depends_on = [step.first]
  severity   = "warn"
  condition  = step.first.rc == 0
  error_message = "first failed"
}
