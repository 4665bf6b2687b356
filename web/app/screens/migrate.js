// Migrate: seed 004's migration report from a current setup.
import { createScreen } from '../screen.js';
import { controlSet, modelControl, workloadControl, precisionControl, hoursControl, spotControl, instanceControl, gpusControl } from '../controls.js';
import { priorityControl, providersControl } from '../more-controls.js';
import { renderReport } from '../report.js';
import { requestBlock } from '../parts.js';
import { demandControl } from '../demand.js';
import { pricingControl, scheduleControl } from '../billing.js';

export function createMigrateScreen(store) {
  const current = instanceControl('mig', { key: 'current', label: 'Current instance (family or type)', def: 'P5' });
  const gpus = gpusControl('mig');
  const model = modelControl('mig');
  const workload = workloadControl('mig');
  const precision = precisionControl('mig');
  const demand = demandControl('mig', workload);
  const priority = priorityControl('mig');
  const hours = hoursControl('mig');
  const spot = spotControl('mig');
  const providers = providersControl('mig', 'Providers (none checked = the current one)');
  const pricing = pricingControl('mig', { spot });
  const schedule = scheduleControl('mig', hours);
  return createScreen(store, {
    id: 'migrate',
    title: 'Migrate',
    intro: 'What should a current setup move to, and what does it save?',
    controls: controlSet([current, gpus, model, workload, precision, demand, priority, schedule, hours, spot, pricing, providers]),
    async render({ ask }) {
      const request = {
        question: 'migrate', current: { instance: current.value(), gpus: gpus.value() }, model: model.value(),
        workload: workload.value(), precision: precision.value(), priority: priority.value(),
        hours_per_month: hours.value(), use_spot: spot.value(),
      };
      const want = demand.value();
      if (want) request.demand = want;
      if (providers.value().length) request.providers = providers.value();
      if (request.current.gpus === null) delete request.current.gpus;
      if (request.hours_per_month === null) delete request.hours_per_month;
      pricing.apply(request);
      schedule.apply(request);
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      return { nodes: [renderReport(response.result, 'mig'), requestBlock(request, 'mig-request')] };
    },
  });
}
