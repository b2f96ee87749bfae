/**
 * The routes bench's CDM records (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): CDM 2015 on every seeded scheme.: the admin appoints itself Client and the second
 * person Principal Contractor; the Client writes the pack and a hazard, the Principal Contractor the plan and
 * a risk. The first scheme gets the full record: 30 appointments (three ended), 30 hazards, a complete plan
 * with 30 risks, handed over, then 30 hazard proposals and 30 proposed changes, some of each decided.
 */
import {
  at,
  type BenchSeeds,
  HAZARDS,
  idsOf,
  N,
  one,
  pick,
  STREETS,
  town,
  WORK,
} from '../../test/bench/seed-steps';

// biome-ignore format: a word list
const CONTROLS = ['Trench box and edge protection', 'Permit to dig with CAT and Genny scan', 'Licensed removal and RPE', 'Gas monitoring and a rescue plan', 'Chapter 8 traffic management', 'Goalposts and a banksman', 'Soil testing and gloves', 'Life jackets and a throw line', 'Barriered walkway and signage'] as const;
// biome-ignore format: a word list
const PLAN_SECTIONS = ['health_and_safety_aims', 'site_rules', 'induction', 'welfare', 'emergency_arrangements', 'monitoring_and_review', 'key_operatives'] as const;
const RISK_LEVELS = ['low', 'medium', 'high'] as const;
const section = (text: string, items?: string[]) => ({ text, ...(items && { items }) });

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 210,
      steps: (c) => {
        const ids = idsOf(c);
        const scheme = (i: number) => ({ scheme_id: ids('schemes', i) });
        const pack = () => ({ pre_construction_information_id: ids('pre-construction-information') });
        const plan = () => ({ construction_phase_plan_id: ids('construction-phase-plans') });
        const appoint = (role: string, notes: string, relationships: object) => ({
          attributes: { role, notes },
          relationships,
        });
        const hazard = (i: number) => ({
          attributes: {
            title: `${pick(HAZARDS, i)[0]}${i >= HAZARDS.length ? `, ${pick(STREETS, i)}` : ''}`,
            severity: pick(HAZARDS, i)[1],
            location: `${pick(['Chainage', 'Chamber', 'Compound gate', 'Bank'], i)} ${10 + i * 25} m, ${pick(STREETS, i)}`,
          },
        });
        const risk = (i: number) => ({
          title: pick(CONTROLS, i),
          control_measures: [
            pick(CONTROLS, i),
            pick(['Toolbox talk', 'Supervised at all times', 'Daily inspection'], i),
          ],
          residual_risk: pick(RISK_LEVELS, i),
          responsible: pick(['Site manager', 'Ganger', 'Temporary works coordinator'], i),
        });
        /** The change the `i`-th decision is about: changes 0, 1, 5, 6, 10, 11, … */
        const decided = (i: number) => Math.floor(i / 2) * 5 + (i % 2);
        return [
          {
            route: 'createAppointment',
            params: scheme,
            data: () => appoint('client', 'Appointed by the board.', { user: one('users', c.me) }),
          },
          {
            route: 'createAppointment',
            params: scheme,
            data: () =>
              appoint('principal_contractor', 'Framework contractor.', { user: one('users', c.pc) }),
          },
          {
            route: 'createPreConstructionInformation',
            type: 'pre-construction-information',
            params: scheme,
            data: (i) => ({
              attributes: {
                sections: {
                  project_description: section(`${pick(WORK, i)} along ${pick(STREETS, i)}, ${town(i)}.`),
                  client_brief: section(
                    'Keep supplies on; no work near the school at opening and closing times.',
                    ['Permit to dig required'],
                  ),
                  existing_information: section(
                    `As-built drawings from ${1960 + (i % 40)}; utility searches done.`,
                  ),
                },
              },
            }),
          },
          {
            route: 'createSiteHazard',
            params: (i) => ({ pre_construction_information_id: ids('pre-construction-information', i) }),
            data: hazard,
          },
          {
            route: 'createConstructionPhasePlan',
            type: 'construction-phase-plans',
            as: 'pc',
            params: scheme,
            data: (i) => ({
              attributes: {
                sections: {
                  health_and_safety_aims: section(
                    `No one harmed on the ${town(i)} job; no pollution of the river.`,
                  ),
                  site_rules: section('Hard hats, boots, hi-vis, gloves; no lone working in chambers.', [
                    'Permit to dig',
                  ]),
                },
              },
            }),
          },
          {
            route: 'createPlanRisk',
            as: 'pc',
            params: (i) => ({ construction_phase_plan_id: ids('construction-phase-plans', i) }),
            data: (i) => ({
              attributes: risk(i),
              relationships: { hazard: one('site-hazards', ids('site-hazards', i)) },
            }),
          },

          // The main scheme: its Principal Designer, and designers and contractors (people, teams, service
          // accounts), three of them ended since.
          {
            route: 'createAppointment',
            count: 1,
            params: () => scheme(0),
            data: () =>
              appoint('principal_designer', 'Design consultant.', { user: one('users', ids('users', 1)) }),
          },
          {
            route: 'createAppointment',
            count: 27,
            serial: true,
            into: 'main-appointments',
            params: () => scheme(0),
            data: (i) =>
              appoint(
                i % 3 === 0 ? 'designer' : 'contractor',
                `${town(i)} package.`,
                i < 3
                  ? { user: one('users', ids('users', i + 2)) }
                  : i % 2 === 0
                    ? { team: one('teams', ids('teams', i)) }
                    : { service_account: one('service-accounts', ids('service-accounts', i)) },
              ),
          },
          {
            route: 'endAppointment',
            count: 3,
            serial: true,
            type: 'appointments',
            into: 'ended-appointments',
            params: (i) => ({ appointment_id: ids('main-appointments', i * 9 + 4) }),
            data: (i) => ({
              id: ids('main-appointments', i * 9 + 4),
              attributes: { status: 'ended', end_reason: 'Package complete.' },
            }),
          },
          // The main pack's hazards and the main plan's risks, one per hazard; the plan's sections; handover.
          {
            route: 'createSiteHazard',
            count: N - 1,
            serial: true,
            into: 'main-hazards',
            params: pack,
            data: (i) => hazard(i + 1),
          },
          {
            route: 'createPlanRisk',
            count: N - 1,
            serial: true,
            as: 'pc',
            into: 'main-risks',
            params: plan,
            data: (i) => ({
              attributes: risk(i + 1),
              relationships: { hazard: one('site-hazards', ids('main-hazards', i)) },
            }),
          },
          {
            route: 'updateConstructionPhasePlan',
            count: PLAN_SECTIONS.length - 2,
            serial: true,
            as: 'pc',
            into: 'plan-edits',
            params: plan,
            data: (i) => ({
              id: ids('construction-phase-plans'),
              attributes: {
                sections: {
                  [pick(PLAN_SECTIONS, i + 2)]: section(
                    `${pick(PLAN_SECTIONS, i + 2).replaceAll('_', ' ')}: as briefed.`,
                  ),
                },
              },
            }),
          },
          {
            route: 'updateConstructionPhasePlan',
            count: 1,
            into: 'plan-edits',
            params: plan,
            data: () => ({
              id: ids('construction-phase-plans'),
              attributes: {
                sections: { client_checklist: section('Welfare, PCI, appointments and F10 notice checked.') },
              },
            }),
          },
          {
            route: 'handOverConstructionPhasePlan',
            count: 1,
            as: 'pc',
            status: 200,
            into: 'handed-over',
            params: plan,
          },
          // After handover: proposals of new hazards, then proposed changes (a third naming a pending proposal).
          {
            route: 'createHazardProposal',
            as: (i) => (i % 2 === 0 ? 'pc' : 'admin'),
            params: pack,
            data: (i) => ({
              attributes: {
                ...hazard(i + 3).attributes,
                reason: `Found on the ${at(i, 3).slice(0, 10)} walkover.`,
              },
            }),
          },
          {
            route: 'createProposedChange',
            status: 200,
            into: 'proposed-changes',
            as: (i) => (i % 3 === 1 ? 'admin' : 'pc'),
            params: plan,
            data: (i) => ({
              attributes: {
                reason: `${pick(['Ground conditions changed', 'New subcontractor', 'Client request', 'Near miss review'], i)} (${at(i, 2).slice(0, 10)}).`,
                section: 'risks',
                operation: i % 3 === 1 ? 'update' : 'create',
                proposed: { risk: i % 3 === 1 ? { residual_risk: pick(RISK_LEVELS, i + 1) } : risk(i + 4) },
              },
              relationships: [
                { hazard: one('site-hazards', ids('main-hazards', i)) },
                { risk: one('construction-phase-plan-risks', ids('main-risks', i)) },
                { hazard_proposal: one('hazard-proposals', ids('hazard-proposals', i)) },
              ][i % 3],
            }),
          },
          // Decisions, one at a time (an accepted change is a new plan version), each by the other party:
          // changes 0, 5, 10, … accepted, 1, 6, 11, … rejected; hazard proposals 0, 3, 6, … (none of them
          // named by a change) accepted or rejected.
          {
            route: 'decideProposedChange',
            count: 12,
            serial: true,
            type: 'construction-phase-plan-proposed-changes',
            into: 'decided-changes',
            as: (i) => (decided(i) % 3 === 1 ? 'pc' : 'admin'),
            params: (i) => ({ proposed_change_id: ids('proposed-changes', decided(i)) }),
            data: (i) => ({
              id: ids('proposed-changes', decided(i)),
              attributes:
                i % 2 === 0
                  ? { status: 'accepted' }
                  : { status: 'rejected', decision_reason: 'Covered by the existing method statement.' },
            }),
          },
          {
            route: 'decideHazardProposal',
            count: 6,
            serial: true,
            type: 'hazard-proposals',
            into: 'decided-proposals',
            params: (i) => ({ hazard_proposal_id: ids('hazard-proposals', 3 * i) }),
            data: (i) => ({
              id: ids('hazard-proposals', 3 * i),
              attributes:
                i % 2 === 0
                  ? { status: 'accepted' }
                  : { status: 'rejected', decision_reason: 'Already on the pack.' },
            }),
          },
        ];
      },
    },
  ],
};
