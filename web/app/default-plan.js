// Seed 001's fleet plan (the content of tests/cases/plans/seed001.json): the Plan screen's
// starting point. Embedded, because the page loads only its own files (web/ and config/).
export const DEFAULT_PLAN = {
  "name": "TextNLP platform (the TextNLP GPU Requirements Assessment, 'Monthly Cost Estimates by Workload')",
  "environments": [
    {
      "name": "Development",
      "workloads": [
        {
          "name": "Development and testing",
          "instance": "g4dn.xlarge",
          "count": 2,
          "schedule": {
            "hours_per_day": 8,
            "days_per_month": 22
          },
          "pricing": "on_demand"
        }
      ]
    },
    {
      "name": "Staging",
      "workloads": [
        {
          "name": "Staging",
          "instance": "p3.2xlarge",
          "count": 1,
          "schedule": {
            "hours_per_day": 4,
            "days_per_month": 22
          },
          "pricing": "on_demand"
        }
      ]
    },
    {
      "name": "Production inference",
      "workloads": [
        {
          "name": "Real-time inference",
          "instance": "g4dn.2xlarge",
          "count": 3,
          "schedule": {
            "always_on": true,
            "hours_per_month": 720
          },
          "pricing": "on_demand",
          "notes": "24/7 at the assessment's 24 h x 30 days = 720 h, not 730"
        }
      ]
    },
    {
      "name": "Production training",
      "workloads": [
        {
          "name": "Weekly training",
          "instance": "p4d.24xlarge",
          "count": 1,
          "schedule": {
            "hours_per_week": 24,
            "weeks_per_month": 4
          },
          "pricing": "on_demand"
        }
      ]
    }
  ]
};
