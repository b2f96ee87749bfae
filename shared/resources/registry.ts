import { agents, briefings } from './agents/definitions';
import {
  equipmentCategories,
  equipmentItems,
  equipmentManufacturers,
  equipmentModels,
  vehicleInventoryChecks,
  vehicleSpecifications,
  vehicles,
} from './assets/definitions';
import { auditEvents } from './audit/audit-events';
import {
  appointments,
  constructionPhasePlans,
  hazardProposals,
  planRisks,
  planVersions,
  preConstructionInformation,
  proposedChanges,
  siteHazards,
} from './cdm/definitions';
import { comments } from './comments/definitions';
import { costLines, costSheets, rateCodes } from './costs/definitions';
import {
  customerAccounts,
  customerAppointments,
  customerContacts,
  customerInteractions,
} from './customers/definitions';
import { deviceBackupRequests, deviceBackups } from './device-backups/definitions';
import { documents, documentVersions, folders } from './documents/definitions';
import { exportsDefinition } from './exports/definitions';
import { featureConfigurations } from './feature-configurations';
import { grants, roleGroups, roles, serviceAccounts, ssoProviders } from './iam/definitions';
import { organisations } from './organisations';
import { importTemplates, locationImports, locations, properties, streets } from './places/definitions';
import { operations, schemeContracts, schemes, workOrders } from './projects/definitions';
import type { ResourceDefinition } from './resource-definition';
import { permits, protections, streetWorks } from './street-works/definitions';
import { teams } from './teams';
import { users } from './users';

/** Every resource type the service serves, by type name: the include resolver walks relationships here. */
export const resourceTypes: ReadonlyMap<string, ResourceDefinition> = new Map(
  [
    organisations,
    teams,
    users,
    featureConfigurations,
    serviceAccounts,
    grants,
    roleGroups,
    roles,
    ssoProviders,
    equipmentItems,
    equipmentManufacturers,
    equipmentModels,
    equipmentCategories,
    vehicleSpecifications,
    vehicles,
    auditEvents,
    locations,
    vehicleInventoryChecks,
    properties,
    streets,
    importTemplates,
    locationImports,
    schemeContracts,
    schemes,
    workOrders,
    operations,
    rateCodes,
    costSheets,
    costLines,
    appointments,
    preConstructionInformation,
    siteHazards,
    hazardProposals,
    constructionPhasePlans,
    planRisks,
    planVersions,
    proposedChanges,
    permits,
    streetWorks,
    protections,
    customerContacts,
    customerAccounts,
    customerInteractions,
    customerAppointments,
    agents,
    briefings,
    comments,
    folders,
    documents,
    documentVersions,
    deviceBackups,
    deviceBackupRequests,
    exportsDefinition,
  ].map((d) => [d.type, d]),
);
