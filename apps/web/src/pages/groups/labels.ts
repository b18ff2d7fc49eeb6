/** Portuguese labels of the group enums (the API speaks English). */
export const GROUP_TYPE_LABELS: Record<string, string> = {
  ATHLETIC: 'Atlética',
  AMATEUR: 'Time amador',
  ACADEMIC: 'Acadêmico',
  OTHER: 'Outro',
};

export const GROUP_ROLE_LABELS: Record<string, string> = {
  OWNER: 'Dono',
  ADMIN: 'Administrador',
  MEMBER: 'Membro',
};
