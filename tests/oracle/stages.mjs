// The graded stages' commands, in course order, for program.mjs: each stage folder's
// reference.mjs under its command. Written by `python -m hookcourse.dev update`.
import { program as stage0 } from "../../hookcourse/stages/matcher_and_dispatch/reference.mjs";
import { program as stage1 } from "../../hookcourse/stages/decide_and_modify/reference.mjs";
import { program as stage2 } from "../../hookcourse/stages/merge_decisions/reference.mjs";
import { program as stage3 } from "../../hookcourse/stages/stop_loop/reference.mjs";
import { program as stage4 } from "../../hookcourse/stages/run_hooks/reference.mjs";

export const programs = {
  "hook-match": stage0,
  "hook-apply": stage1,
  "hook-merge": stage2,
  "hook-stop": stage3,
  "hook-run": stage4,
};
