#!/bin/bash
# A laboratory's simulation on a Slurm cluster: an array of SHARDS tasks, each
# one shard (`sabot sim … --shard K/SHARDS`, K = the task's ID), then the merge
# once every task has succeeded (docs/certification.md).
#
#   sbatch deploy/slurm/sim-array.sh            # prints the array's job ID
#   sbatch --dependency=afterok:JOBID deploy/slurm/sim-merge.sh
#
# PROFILE, ROUNDS, SEED and SHARDS must be the same in both scripts (the merge
# reads them from the shards' files and refuses a mixture).
#SBATCH --job-name=sabot-sim
#SBATCH --array=1-64
#SBATCH --cpus-per-task=2
#SBATCH --mem=512M
#SBATCH --time=02:00:00
#SBATCH --output=shards/slurm-%A_%a.log
set -euo pipefail
PROFILE=${PROFILE:-argentina}
ROUNDS=${ROUNDS:-1000000000}
SEED=${SEED:-20261126}
SHARDS=${SHARDS:-64}
K=${SLURM_ARRAY_TASK_ID}
mkdir -p shards
sabot sim "$PROFILE" --continuous --rounds "$ROUNDS" --seed "$SEED" \
  --shard "$K/$SHARDS" --workers "${SLURM_CPUS_PER_TASK:-1}" > "shards/shard-$K.json.tmp"
mv "shards/shard-$K.json.tmp" "shards/shard-$K.json"
