#!/bin/bash
# The merge of deploy/slurm/sim-array.sh's shards, after the array:
#   sbatch --dependency=afterok:JOBID deploy/slurm/sim-merge.sh
#SBATCH --job-name=sabot-sim-merge
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
#SBATCH --output=simulation.json
set -euo pipefail
sabot sim merge shards/shard-*.json --json
