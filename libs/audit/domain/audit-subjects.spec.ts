import { auditSubjects, type Subject } from '@app/platform/domain/audit-subject';

type Event =
  | { type: 'OrganizationCreated'; data: { organizationId: string } }
  | { type: 'MemberAdded'; data: { userId: string } }
  | { type: 'ChangeRequestCreated'; data: { changeRequestId: string } };

const subject = (id: string): Subject => ({ type: 'x', id });

describe('auditSubjects', () => {
  it('files each event type under the resource it names, typed by its data', () => {
    const declared = auditSubjects<Event>()({
      organization: { OrganizationCreated: (d) => subject(d.organizationId) },
      member: { MemberAdded: (d) => subject(d.userId) },
      change_request: { ChangeRequestCreated: (d) => subject(d.changeRequestId) },
    });
    expect(Object.keys(declared)).toEqual(['organization', 'member', 'change_request']);
    expect(declared.member.MemberAdded({ userId: 'u1' })).toEqual({ type: 'x', id: 'u1' });
  });

  it('is refused by the compiler when a type is misfiled, unlisted or under two resources', () => {
    const misfiled = () =>
      auditSubjects<Event>()({
        organization: {
          OrganizationCreated: (d) => subject(d.organizationId),
          // @ts-expect-error `MemberAdded` does not start with `Organization`
          MemberAdded: (d: { userId: string }) => subject(d.userId),
        },
        change_request: { ChangeRequestCreated: (d) => subject(d.changeRequestId) },
      });
    const unlisted = () =>
      // @ts-expect-error `ChangeRequestCreated` is under no resource
      auditSubjects<Event>()({
        organization: { OrganizationCreated: (d) => subject(d.organizationId) },
        member: { MemberAdded: (d) => subject(d.userId) },
      });
    const twice = () =>
      // @ts-expect-error `ChangeRequestCreated` names both `change` and `change_request`
      auditSubjects<Event>()({
        organization: { OrganizationCreated: (d) => subject(d.organizationId) },
        member: { MemberAdded: (d) => subject(d.userId) },
        change: { ChangeRequestCreated: (d) => subject(d.changeRequestId) },
        change_request: { ChangeRequestCreated: (d) => subject(d.changeRequestId) },
      });
    const pascal = () =>
      auditSubjects<Event>()({
        organization: { OrganizationCreated: (d: { organizationId: string }) => subject(d.organizationId) },
        member: { MemberAdded: (d: { userId: string }) => subject(d.userId) },
        // @ts-expect-error a resource is named in snake case
        ChangeRequest: {
          ChangeRequestCreated: (d: { changeRequestId: string }) => subject(d.changeRequestId),
        },
      });
    expect([misfiled, unlisted, twice, pascal]).toHaveLength(4);
  });
});
