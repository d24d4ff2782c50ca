export function writer(name) {
  return { caps: { leaves: ['int32'], nested: [] }, options: () => ({}), write: async () => { throw new Error(`${name}: not yet`); } };
}
