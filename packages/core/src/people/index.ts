// People: accounts, sign-in and sessions, the team and invitations, permissions and the
// workspace scope.

export {
  changePassword,
  changePasswordInput,
  endOtherSessions,
  endOwnSessionById,
  getAccount,
  ownSessions,
  resetPassword,
  sessionIdInput,
} from "./account.ts";
export { accountOperations } from "./account-operations.ts";
export { listAudit, listAuditActors, listAuditInput, NO_CLIENT, recordAudit } from "./audit.ts";
export { auditOperations } from "./audit-operations.ts";
export { type PanelItemKind, panelItemTitle } from "./page-titles.ts";
export {
  type PanelCall,
  type PanelInput,
  type PanelOperation,
  type PanelOperationType,
  type PanelScope,
  panelOperationsOver,
} from "./panel-operation.ts";
export {
  completePasswordReset,
  completePasswordResetInput,
  limitPasswordResetAttempt,
  openPasswordReset,
  PASSWORD_RESET_REQUESTED,
  passwordResetEmail,
  passwordResetRequestInput,
  requestPasswordReset,
} from "./password-reset.ts";
export { hashPassword, needsRehash, verifyPassword } from "./passwords.ts";
export {
  acceptInvitation,
  acceptInvitationInput,
  deactivatePerson,
  invitationIdInput,
  inviteInput,
  inviteTeamMember,
  limitInvitationAttempt,
  listPeople,
  openInvitation,
  personIdInput,
  reactivatePerson,
  revokeInvitation,
  setRole,
  setRoleInput,
} from "./people.ts";
export { peopleOperations } from "./people-operations.ts";
export {
  PANEL_SECTIONS,
  PERMISSION_NAMES,
  PERMISSIONS,
  type Permission,
  type PermissionMap,
  panelSectionsFor,
  permissionsOf,
  ROLES,
  type Role,
  refusalOf,
  roleMay,
  roleMayCall,
  roleOf,
  SESSION_ROUTE_PERMISSIONS,
} from "./permissions.ts";
export type { AdminScope, RequestClient } from "./scope.ts";
export { checkSession, endAllSessions, endSession, type SessionAdmin, startSession } from "./sessions.ts";
export { passwordWork, signInAdmin } from "./sign-in.ts";
export { listTeamMembers } from "./team.ts";
export { teamOperations } from "./team-operations.ts";
export { describeUserAgent } from "./user-agent.ts";
