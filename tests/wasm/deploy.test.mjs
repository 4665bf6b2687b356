// deploy's files (issue 36, docs/deploy.md) for the golden deployments of tests/cases/deploy_*:
// every file parses with a well-kept parser (yaml, @cdktf/hcl2json, JSON) and validates against
// the published schemas (kubernetes-models and its KEDA, Karpenter and GKE packages; the ECS task
// definition's shape from the RegisterTaskDefinition API); the instance type, counts, tensor
// parallelism, sequences and min/max read back from the files equal the source answer's figures,
// the source question asked on its own. (The golden test checks the same answers byte for byte in
// the WebAssembly core.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parse as parseHcl } from '@cdktf/hcl2json';
import Ajv from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service as CoreService, PodTemplateSpec, ConfigMap } from 'kubernetes-models/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { NodePool } from '@kubernetes-models/karpenter/karpenter.sh/v1';
import { EC2NodeClass } from '@kubernetes-models/karpenter/karpenter.k8s.aws/v1';
import { ComputeClass } from '@kubernetes-models/gke/cloud.google.com/v1';
import { root, catalogTexts, load } from './support.mjs';

const { gpufleet } = await load();
const analyzer = gpufleet.createAnalyzer(catalogTexts());
const casesDir = path.join(root, 'tests', 'cases');
const cases = readdirSync(casesDir).filter((f) => /^deploy_.*\.request\.json$/.test(f)).sort();
const ask = (request) => JSON.parse(analyzer.analyzeJson(JSON.stringify(request)));

// The ECS task definition's members this file uses, as RegisterTaskDefinition documents them.
const ecsTaskSchema = {
  type: 'object',
  required: ['family', 'containerDefinitions'],
  properties: {
    family: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,255}$' },
    requiresCompatibilities: { type: 'array', items: { enum: ['EC2', 'FARGATE', 'EXTERNAL', 'MANAGED_INSTANCES'] } },
    networkMode: { enum: ['bridge', 'host', 'awsvpc', 'none'] },
    placementConstraints: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { const: 'memberOf' }, expression: { type: 'string' } } } },
    containerDefinitions: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', required: ['name', 'image'],
        properties: {
          name: { type: 'string' }, image: { type: 'string' }, essential: { type: 'boolean' },
          command: { type: 'array', items: { type: 'string' } },
          memoryReservation: { type: 'integer', minimum: 4 },
          portMappings: { type: 'array', items: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { enum: ['tcp', 'udp'] } } } },
          resourceRequirements: { type: 'array', items: { type: 'object', required: ['type', 'value'], properties: { type: { enum: ['GPU', 'InferenceAccelerator'] }, value: { type: 'string', pattern: '^[0-9]+$' } } } },
        },
        additionalProperties: false,
      },
    },
    tags: { type: 'array', maxItems: 50, items: { type: 'object', required: ['key', 'value'], properties: { key: { type: 'string', maxLength: 128 }, value: { type: 'string', maxLength: 256 } } } },
  },
  additionalProperties: false,
};
const validateEcs = new Ajv({ allErrors: true }).compile(ecsTaskSchema);

const models = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': CoreService,
  'v1/ConfigMap': ConfigMap,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'karpenter.sh/v1/NodePool': NodePool,
  'karpenter.k8s.aws/v1/EC2NodeClass': EC2NodeClass,
  'cloud.google.com/v1/ComputeClass': ComputeClass,
};

/** The documents of a YAML file, each validated where a schema is published. */
function yamlDocs(file) {
  const docs = parseAllDocuments(file.content);
  for (const d of docs) assert.deepEqual(d.errors, [], `${file.name}: ${d.errors.map(String)}`);
  const objects = docs.map((d) => d.toJS()).filter((o) => o != null);
  for (const o of objects) {
    const Model = models[`${o.apiVersion}/${o.kind}`];
    if (Model) new Model(o).validate();
    if (o.kind === 'LeaderWorkerSet') {
      new PodTemplateSpec(o.spec.leaderWorkerTemplate.leaderTemplate).validate();
      new PodTemplateSpec(o.spec.leaderWorkerTemplate.workerTemplate).validate();
    }
  }
  return objects;
}

/** Each number of a file names its figure: a comment on its line (YAML, HCL; JSON has tags).
 *  Ports, probe periods and a format's version are the formats' constants, not figures. */
const CONSTANTS = /^\s*(?:-\s*)?"?(ports?|containerPort|targetPort|periodSeconds|version)"?\s*[:=]/;
function assertNumbersTraced(file) {
  if (file.media_type === 'application/json') return;
  const lines = file.content.split('\n');
  lines.forEach((line, i) => {
    const keyed = /^\s*(?:-\s*)?[\w.\-/"]+\s*[:=]\s*"?-?\d+(?:\.\d+)?s?"?\s*(#.*)?$/.exec(line);
    const item = /^\s*-\s*"-?\d+(?:\.\d+)?"\s*(#.*)?$/.exec(line);
    const m = keyed ?? item;
    if (!m || CONSTANTS.test(line) || (item && /--port|--nnodes|--node-rank/.test(lines[i - 1]))) return;
    assert.ok(m[1], `${file.name}: a number without the figure it came from: ${line.trim()}`);
  });
}

/** The region a file is for when the answer writes several ("us-east-2/kubernetes/x.yaml"). */
const site = (f) => (f.name.split('/').length > 2 ? f.name.split('/')[0] : '');

// The deployment the source answer chose, read from that answer as the deploy question reads it.
function chosen(source, request, response) {
  const r = response.result;
  if (source === 'fit') return r.deployment;
  if (source === 'recommend') return r.candidates[request.candidate ?? 0];
  if (source === 'decide') return r.options[request.candidate ?? r.options.findIndex((o) => o.recommended)].cheapest_instance;
  return null;
}

/** A fleet plan's files: per workload, the instance type, count, spot share and hours of the plan
 *  answer's row (spot instances = the count x spot_share, rounded); no serving files. */
async function assertPlanFiles(request, source, expected) {
  const files = expected.result.files;
  const rows = source.result.environments.flatMap((e) => e.workloads);
  const asked = request.from.plan.environments.flatMap((e) => e.workloads);
  assert.equal(expected.result.deployments.length, rows.length);
  for (const t of ['kubernetes', 'keda', 'hpa', 'ecs']) {
    const row = expected.result.targets.find((x) => x.target === t);
    assert.equal(row.applies, false, t);
    assert.match(row.reason, /names none/, t);
    assert.equal(files.filter((f) => f.target === t).length, 0, t);
  }
  for (const [i, w] of rows.entries()) {
    const d = expected.result.deployments[i];
    const mine = (t) => files.filter((f) => f.target === t && f.name.split('/').pop().startsWith(d.name));
    const share = asked[i].pricing === 'mixed' ? (asked[i].spot_share ?? 0.5) : w.cost.pricing === 'spot' ? 1 : 0;
    const spot = Math.round(w.count * share);
    const onDemand = w.count - spot;
    assert.equal(d.instance, w.instance);
    const [tfFile] = mine('terraform');
    const tf = (await parseHcl(tfFile.name, tfFile.content)).resource;
    if (w.provider === 'aws') {
      assert.equal(Object.values(tf.aws_launch_template)[0][0].instance_type, w.instance);
      const asg = Object.values(tf.aws_autoscaling_group)[0][0];
      assert.deepEqual([asg.min_size, asg.max_size, asg.desired_capacity], [w.count, w.count, w.count]);
      const dist = asg.mixed_instances_policy[0].instances_distribution[0];
      assert.equal(dist.on_demand_base_capacity, onDemand);
      assert.equal(dist.on_demand_percentage_above_base_capacity, spot > 0 ? 0 : 100);
      const [cfg] = yamlDocs(mine('eksctl')[0]);
      const group = (cfg.managedNodeGroups ?? cfg.nodeGroups)[0];
      assert.equal(group.desiredCapacity, w.count);
      assert.equal(group.instanceType ?? group.instancesDistribution.instanceTypes[0], w.instance);
      if (spot > 0) assert.equal(group.instancesDistribution.onDemandBaseCapacity, onDemand);
      const pools = yamlDocs(mine('karpenter')[0]).filter((o) => o.kind === 'NodePool');
      const gpus = (p) => p.spec.limits['nvidia.com/gpu'];
      const od = pools.find((p) => p.spec.template.spec.requirements.some((r) => r.key === 'karpenter.sh/capacity-type' && r.values.join() === 'on-demand'));
      if (onDemand > 0 && spot > 0) assert.equal(gpus(od), onDemand * d.gpus_per_instance.value);
      const [usage] = yamlDocs(mine('infracost')[0]);
      const u = Object.values(usage.resource_usage)[0];
      assert.deepEqual([u.instances, u.monthly_hrs], [w.count, w.cost.monthly_hours]);
    } else if (w.provider === 'gcp') {
      const pools = Object.values(tf.google_container_node_pool).map((p) => p[0]);
      assert.equal(pools.reduce((n, p) => n + p.node_count, 0), w.count);
      assert.equal(pools.filter((p) => !p.node_config[0].spot).reduce((n, p) => n + p.node_count, 0), onDemand);
      for (const p of pools) assert.equal(p.node_config[0].machine_type, w.instance.split('+')[0]);
      const [cc] = yamlDocs(mine('gke_compute_class')[0]);
      assert.equal(cc.spec.priorities[0].spot, spot > 0);
      const [usage] = yamlDocs(mine('infracost')[0]);
      assert.equal(Object.values(usage.resource_usage).reduce((n, u) => n + u.nodes, 0), w.count);
      assert.match(mine('infracost')[0].content, new RegExp(`runs them ${w.cost.monthly_hours} h`));
    }
    // SkyPilot: `sky launch` tasks whose nodes add up to the count, the on-demand ones to the base.
    const tasks = mine('skypilot').map((f) => yamlDocs(f)[0]);
    assert.equal(tasks.reduce((n, t) => n + t.num_nodes, 0), w.count);
    assert.equal(tasks.filter((t) => !t.resources.use_spot).reduce((n, t) => n + t.num_nodes, 0), onDemand);
    for (const t of tasks) assert.equal(t.resources.region, w.region);
  }
}

for (const file of cases) {
  const stem = file.slice(0, -'.request.json'.length);
  const request = JSON.parse(readFileSync(path.join(casesDir, file), 'utf8'));
  const expected = JSON.parse(readFileSync(path.join(casesDir, `${stem}.expected.json`), 'utf8'));

  test(`${stem}: every file parses and validates`, async () => {
    assert.equal(expected.ok, true, JSON.stringify(expected.errors));
    const files = expected.result.files;
    assert.ok(files.length >= 4, `${files.length} files`);
    for (const f of files) {
      if (f.media_type === 'application/yaml') yamlDocs(f);
      else if (f.media_type === 'text/x-hcl') assert.ok(Object.keys(await parseHcl(f.name, f.content)).length > 0);
      else if (f.name.endsWith('-taskdef.json')) assert.ok(validateEcs(JSON.parse(f.content)), JSON.stringify(validateEcs.errors));
      else JSON.parse(f.content);
      assertNumbersTraced(f);
      assert.doesNotMatch(f.content.replace(/#.*$/gm, ''), /maxPrice|spot_max_price|lowestPrice|lowest-price/, `${f.name}: a spot maximum price or lowest-price allocation`);
      assert.doesNotMatch(f.content, /k8s-device-plugin\/main\//, `${f.name}: the device plugin from main`);
    }
    // Files state the catalog and price dates.
    for (const f of files) assert.match(f.content, new RegExp(expected.result.deployments[0] ? 'Catalog|gpufleet:catalog' : ''), f.name);
  });

  test(`${stem}: the files carry the source answer's figures`, async () => {
    const source = ask(request.from);
    assert.equal(source.ok, true);
    const files = Object.fromEntries(expected.result.files.map((f) => [f.name, f]));
    const byTarget = (t) => expected.result.files.filter((f) => f.target === t);
    const q = request.from.question;
    if (q === 'plan') return assertPlanFiles(request, source, expected);
    const dep = chosen(q, request, source);
    let instance, tp, seqs, replicas, instances;
    if (dep) {
      ({ instance } = dep);
      tp = dep.layout.tensor_parallel;
      seqs = dep.concurrency_per_replica;
      replicas = dep.layout.replicas;
      instances = dep.instance_count;
    } else if (q === 'autoscale') {
      instance = source.result.deployment.instance;
      tp = source.result.deployment.tensor_parallel;
      seqs = source.result.deployment.concurrency_per_replica;
      replicas = source.result.recommended.min_replicas;
    } else if (q === 'spot') {
      instance = source.result.plan.instance;
      replicas = source.result.plan.replicas_total;
    } else if (q === 'regions') {
      instance = source.result.instance;
      replicas = source.result.regions_chosen.reduce((n, c) => n + c.replicas, 0);
    } else if (q === 'placement') {
      const packing = source.result[request.packing ?? (source.result.on_instance ? 'on_instance' : 'cheapest_split')];
      instance = packing.instance;
      instances = packing.instance_count;
    }
    // Kubernetes: the engine's flags and the pods' placement.
    let k8sReplicas = 0;
    for (const f of byTarget('kubernetes')) {
      const docs = yamlDocs(f);
      const work = docs.find((d) => d.kind === 'Deployment' || d.kind === 'LeaderWorkerSet');
      if (!work) continue;  // a packing's GPU-sharing ConfigMap
      const pod = work.kind === 'Deployment' ? work.spec.template.spec : work.spec.leaderWorkerTemplate.leaderTemplate.spec;
      assert.equal(pod.nodeSelector['node.kubernetes.io/instance-type'], instance);
      const c = pod.containers[0];
      const args = (c.args ?? []).join(' ');
      const flag = (name) => Number(args.match(new RegExp(`(?:${name})[ =]+(\\d+(?:\\.\\d+)?)`))?.[1]);
      if (tp !== undefined) assert.equal(flag('--tensor-parallel-size|--tp-size'), tp, f.name);
      if (seqs !== undefined) assert.equal(flag('--max-num-seqs|--max-running-requests'), seqs, f.name);
      if (q !== 'placement') {
        const demand = source.result.request.demand;
        assert.equal(flag('--max-model-len|--context-length'), demand.input_tokens + demand.output_tokens);
      }
      k8sReplicas += work.spec.replicas;
    }
    if (replicas !== undefined) assert.equal(k8sReplicas, replicas);
    // Node groups: the instance type and the counts.
    for (const f of byTarget('eksctl')) {
      const [cfg] = yamlDocs(f);
      const group = (cfg.managedNodeGroups ?? cfg.nodeGroups)[0];
      assert.equal(group.instanceType ?? group.instancesDistribution.instanceTypes[0], instance);
      if (instances !== undefined) assert.equal(group.desiredCapacity, instances);
      if (q === 'autoscale') {
        const per = source.result.deployment.gpus_per_replica / expected.result.deployments[0].gpus_per_instance.value;
        assert.equal(group.minSize, Math.ceil(source.result.recommended.min_replicas * per));
        assert.equal(group.maxSize, Math.ceil(source.result.recommended.max_replicas * per));
      }
    }
    for (const f of byTarget('terraform')) {
      const tf = await parseHcl(f.name, f.content);
      const asg = Object.values(tf.resource?.aws_autoscaling_group ?? {})[0]?.[0];
      if (asg && instances !== undefined) assert.equal(asg.desired_capacity, instances);
      const lt = Object.values(tf.resource?.aws_launch_template ?? {})[0]?.[0];
      if (lt) assert.equal(lt.instance_type, instance);
      const vmss = Object.values(tf.resource?.azurerm_linux_virtual_machine_scale_set ?? {})[0]?.[0];
      if (vmss) {
        assert.equal(vmss.sku, instance);
        if (instances !== undefined) assert.equal(vmss.instances, instances);
      }
      for (const pool of Object.values(tf.resource?.google_container_node_pool ?? {})) {
        assert.equal(`${pool[0].node_config[0].machine_type}`, instance.split('+')[0]);
        assert.ok(pool[0].node_config[0].guest_accelerator[0].type.startsWith('nvidia-'));
      }
    }
    // Autoscaling: min, max and the threshold equal autoscale's recommendation.
    if (q === 'autoscale') {
      const rec = source.result.recommended;
      const [so] = yamlDocs(byTarget('keda')[0]);
      assert.equal(so.spec.minReplicaCount, rec.min_replicas);
      assert.equal(so.spec.maxReplicaCount, rec.max_replicas);
      assert.equal(Number(so.spec.triggers[0].metadata.threshold), rec.threshold);
      assert.equal(so.spec.advanced.horizontalPodAutoscalerConfig.behavior.scaleDown.stabilizationWindowSeconds, rec.scale_down_delay_s);
      const [h] = yamlDocs(byTarget('hpa')[0]);
      assert.deepEqual([h.spec.minReplicas, h.spec.maxReplicas], [rec.min_replicas, rec.max_replicas]);
      const [sky] = yamlDocs(byTarget('skypilot')[0]);
      assert.deepEqual([sky.service.replica_policy.min_replicas, sky.service.replica_policy.max_replicas], [rec.min_replicas, rec.max_replicas]);
    } else {
      assert.equal(byTarget('keda').length, 0, 'KEDA without autoscale settings');
    }
    // Spot: every region's replicas and on-demand base add up to the plan's.
    if (q === 'spot') {
      const plan = source.result.plan;
      let total = 0;
      for (const f of byTarget('skypilot')) {
        const [sky] = yamlDocs(f);
        total += sky.service.replicas ?? sky.service.replica_policy.min_replicas;
        if (sky.resources.region === plan.on_demand.region && plan.on_demand.replicas > 0)
          assert.equal(sky.service.replica_policy.base_ondemand_fallback_replicas, plan.on_demand.replicas);
      }
      assert.equal(total, plan.replicas_total);
      const regions = new Set(byTarget('skypilot').map((f) => yamlDocs(f)[0].resources.region));
      for (const s of plan.spot) if (s.replicas > 0) assert.ok(regions.has(s.region), s.region);
      if (regions.size > 1) for (const f of expected.result.files) assert.ok(regions.has(site(f)), f.name);
    }
    // Regions: each region's files hold the replicas the answer put there.
    if (q === 'regions') {
      for (const c of source.result.regions_chosen) {
        const k8s = byTarget('kubernetes').filter((f) => site(f) === c.region || source.result.regions_chosen.length === 1);
        const n = k8s.reduce((sum, f) => sum + yamlDocs(f).find((d) => d.kind === 'Deployment' || d.kind === 'LeaderWorkerSet').spec.replicas, 0);
        assert.equal(n, c.replicas, c.region);
      }
    }
    // Placement: one node group for the packing; each placed catalog model its own engine, on a
    // GPU it shares capped at its share of memory (the shares of one GPU sum to at most 1).
    if (q === 'placement') {
      const packing = source.result[request.packing ?? (source.result.on_instance ? 'on_instance' : 'cheapest_split')];
      const gb = Object.fromEntries(source.result.models.map((m) => [m.name, m.memory_gb]));
      const share = {};
      for (const entry of request.from.models) {
        const mine = byTarget('kubernetes').find((f) => f.name.startsWith(`kubernetes/${entry.name.replace(/[^a-z0-9]/gi, '-').toLowerCase()}-`) && !f.name.endsWith('-sharing.yaml'));
        if (!entry.model?.name) {
          assert.equal(mine, undefined, `${entry.name} is given by memory: no engine to write`);
          assert.ok(expected.result.left_out.some((l) => l.target === 'kubernetes' && l.reason.includes(entry.name)), entry.name);
          continue;
        }
        assert.ok(mine, `${entry.name}: no Kubernetes file`);
        const work = yamlDocs(mine).find((d) => d.kind === 'Deployment');
        const args = work.spec.template.spec.containers[0].args.join(' ');
        const util = Number(args.match(/--gpu-memory-utilization (\S+)/)[1]);
        const gpu = packing.gpus.find((g) => g.models.includes(entry.name));
        if (gpu.models.length > 1) {
          assert.ok(util <= gb[entry.name] / gpu.capacity_gb + 1e-9, `${entry.name}: ${util}`);
          assert.equal(work.spec.template.spec.containers[0].resources.limits['nvidia.com/gpu'], 1);
          share[gpu.gpu] = (share[gpu.gpu] ?? 0) + util;
        }
      }
      for (const [g, sum] of Object.entries(share)) assert.ok(sum <= 1, `GPU ${g}: shares sum to ${sum}`);
      const most = Math.max(...packing.gpus.map((g) => g.models.length));
      const sharing = byTarget('kubernetes').filter((f) => f.name.endsWith('-sharing.yaml'));
      assert.equal(sharing.length, most > 1 ? 1 : 0);
      if (most > 1) {
        const [cm] = yamlDocs(sharing[0]);
        const cfg = parseAllDocuments(cm.data['config.yaml'])[0].toJS();
        assert.equal(cfg.sharing.timeSlicing.resources[0].replicas, most);
      }
      assert.equal(byTarget('eksctl').length, 1, 'one node group for the packing');
    }
    // The ECS task asks the replica's GPUs.
    for (const f of byTarget('ecs').filter((x) => x.name.endsWith('-taskdef.json'))) {
      const task = JSON.parse(f.content);
      const gpus = Number(task.containerDefinitions[0].resourceRequirements[0].value);
      const dep = expected.result.deployments.find((d) => f.name.endsWith(`/${d.name}-taskdef.json`));
      assert.equal(gpus, dep.gpus_per_replica.value);
      assert.equal(task.placementConstraints[0].expression.split('== ')[1], instance);
    }
    // Infracost prices the mean, not the desired count (infracost #2896).
    for (const f of byTarget('infracost')) {
      const [usage] = yamlDocs(f);
      const resources = Object.keys(usage.resource_usage);
      const tf = expected.result.files.find((x) => x.target === 'terraform' && site(x) === site(f));
      const declared = (await parseHcl(tf.name, tf.content)).resource;
      for (const r of resources) {
        const [type, name] = r.split('.');
        assert.ok(declared[type]?.[name], `${r} is not a resource of ${tf.name}`);
        // Infracost reads counts as whole numbers; on AWS the hours keep the mean's instance-hours.
        const use = usage.resource_usage[r];
        const count = use.instances ?? use.nodes;
        assert.ok(Number.isInteger(count), `${r}: ${count} is not a whole count`);
        const mean = f.content.match(/\(([0-9.]+)\) rounded up/);
        if (mean && type === 'aws_autoscaling_group') assert.ok(Math.abs(count * use.monthly_hrs - Number(mean[1]) * 730) < 1, r);
      }
    }
    void files;
  });
}

test('a target that does not apply to the provider is refused, naming those that do', () => {
  const gcp = { question: 'fit', model: { name: 'llama-3.1-8b' }, workload: 'inference', instance: 'g2-standard-8', gpus: 1 };
  const r = ask({ question: 'deploy', target: 'ecs', from: gcp });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].path, '/target');
  assert.match(r.errors[0].message, /ecs does not apply to gcp/);
  assert.match(r.errors[0].message, /gke_compute_class/);
  const bad = ask({ question: 'deploy', target: 'all', from: { ...gcp, instance: 'nope' } });
  assert.equal(bad.errors[0].path, '/from/instance');
});
